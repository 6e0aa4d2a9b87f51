global using System;
global using System.Buffers;
global using System.Collections.Generic;
global using System.Linq;
global using BenchmarkDotNet.Attributes;

namespace NativePool.Analyzers.Tests.Infrastructure;

/// <summary>Wraps statements into a compilable class with pools, a flag and helpers that take or do not take ownership.</summary>
internal static class Sources
{
    /// <summary>A class whose method <c>M</c> has <paramref name="body"/> and the parameters the tests use.</summary>
    public static string InMethod(string body, string members = "") => $$"""
        using System;
        using System.Buffers;
        using System.Text;
        using Microsoft.Extensions.ObjectPool;
        using NativePool;

        public class C
        {
            private byte[]? _kept;

            public void M(ArrayPool<byte> pool, StripedArrayPool<byte> striped, ObjectPool<StringBuilder> builders, bool condition, int n)
            {
        {{body}}
            }

            private static void Use(Span<byte> span) => span.Clear();

            private static void Consume(byte[] array) => GC.KeepAlive(array);

            private static void Work() => Console.WriteLine();
        {{members}}
        }
        """;
}

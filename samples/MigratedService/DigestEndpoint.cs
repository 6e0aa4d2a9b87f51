using System;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Http;

namespace NativePool.Samples.MigratedService;

/// <summary>POST /digest: the request body's length and SHA-256, read through a buffer from <see cref="StripedArrayPool{T}.Shared"/>.</summary>
internal static class DigestEndpoint
{
    /// <summary>The read buffer's length, as <see cref="System.IO.Stream.CopyToAsync(System.IO.Stream)"/> uses.</summary>
    private const int BufferLength = 81920;

    /// <summary>What POST /digest answers.</summary>
    /// <param name="Length">The body's length in bytes.</param>
    /// <param name="Sha256">The body's SHA-256, lowercase hexadecimal.</param>
    internal sealed record Digest(long Length, string Sha256);

    /// <summary>Reads the body to its end and answers its <see cref="Digest"/>.</summary>
    public static async Task<IResult> HandleAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        long length = 0;

        // Before: ArrayPool<byte>.Shared.Rent and .Return. After: StripedArrayPool<byte>.Shared, as the NP0006 code fix
        // writes it. The try/finally stays: the buffer lives across awaits, where a RentScoped scope (a ref struct) cannot.
        byte[] buffer = StripedArrayPool<byte>.Shared.Rent(BufferLength);
        try
        {
            int read;
            while ((read = await request.Body.ReadAsync(buffer, cancellationToken).ConfigureAwait(false)) > 0)
            {
                hash.AppendData(buffer, 0, read);
                length += read;
            }
        }
        finally
        {
            StripedArrayPool<byte>.Shared.Return(buffer);
        }

        return TypedResults.Ok(new Digest(length, Convert.ToHexStringLower(hash.GetHashAndReset())));
    }
}

using System;
using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Samples.MigratedService;

/// <summary>
/// POST /report: order lines (<c>sku,quantity,unitPrice</c>, UTF-8) in, per-SKU totals as CSV out. The body is decoded
/// into a keyed pool's array, summed by a pooled <see cref="ReportBuilder"/>, written with a pooled
/// <see cref="StringBuilder"/> and buffered in a <see cref="PooledStream"/>, so the answer has a Content-Length and a
/// refused line answers 400 rather than a cut-off body.
/// </summary>
internal static class ReportEndpoint
{
    /// <summary>The largest body accepted, in bytes; a larger one answers 413.</summary>
    public const int MaximumBodyLength = 256 * 1024;

    /// <summary>Reads the whole body, then renders the report.</summary>
    public static async Task HandleAsync(
        HttpContext context,
        [FromKeyedServices(MigratedServiceApp.TextPoolKey)] StripedArrayPool<char> textPool,
        StripedObjectPool<ReportBuilder> reports,
        ObjectPool<StringBuilder> stringBuilders,
        PooledStreamManager streams)
    {
        CancellationToken cancellationToken = context.RequestAborted;
        PipeReader reader = context.Request.BodyReader;
        ReadResult read = await reader.ReadAsync(cancellationToken).ConfigureAwait(false);
        while (!read.IsCompleted && read.Buffer.Length <= MaximumBodyLength)
        {
            reader.AdvanceTo(read.Buffer.Start, read.Buffer.End);
            read = await reader.ReadAsync(cancellationToken).ConfigureAwait(false);
        }

        if (read.Buffer.Length > MaximumBodyLength)
        {
            reader.AdvanceTo(read.Buffer.End);
            await TypedResults.Problem($"The body is over {MaximumBodyLength} bytes.", statusCode: StatusCodes.Status413PayloadTooLarge)
                .ExecuteAsync(context).ConfigureAwait(false);
            return;
        }

        // Before: using RecyclableMemoryStream body = manager.GetStream("report"). After: the same call on a PooledStreamManager.
        PooledStream body = streams.GetStream("report");
        await using (body.ConfigureAwait(false))
        {
            string? error = Render(read.Buffer, textPool, reports, stringBuilders, body);
            reader.AdvanceTo(read.Buffer.End);
            if (error is not null)
            {
                await TypedResults.Problem(error, statusCode: StatusCodes.Status400BadRequest).ExecuteAsync(context).ConfigureAwait(false);
                return;
            }

            context.Response.ContentType = "text/csv; charset=utf-8";
            context.Response.ContentLength = body.Length;
            body.Position = 0;
            await body.CopyToAsync(context.Response.Body, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Decodes <paramref name="utf8"/>, sums its lines and writes the CSV into <paramref name="output"/>.</summary>
    /// <returns>Null, or why a line was refused (nothing is written then).</returns>
    private static string? Render(
        in ReadOnlySequence<byte> utf8,
        StripedArrayPool<char> textPool,
        StripedObjectPool<ReportBuilder> reports,
        ObjectPool<StringBuilder> stringBuilders,
        PooledStream output)
    {
        // Before: char[] text = s_textPool.Rent(n); try { … } finally { s_textPool.Return(text); }. After: a scope, which
        // returns the array when the method ends, as the finally did (the NP0007 code fix's rewrite).
        using ArrayScope<char> text = textPool.RentScoped(Encoding.UTF8.GetMaxCharCount(checked((int)utf8.Length)));
        int length = Encoding.UTF8.GetChars(utf8, text.Span);

        // Before: ReportBuilder report = pool.Get(); try { … } finally { pool.Return(report); }. After: a scope; the
        // instance goes back, and is reset, when the method ends.
        using ObjectScope<ReportBuilder> report = reports.RentScoped();
        if (!report.Value.TryAddLines(text.Span[..length], out string? error))
        {
            return error;
        }

        // Unchanged: ObjectPool<StringBuilder>'s Get and Return; the pool behind it is now a StripedObjectPool.
        StringBuilder csv = stringBuilders.Get();
        try
        {
            report.Value.WriteCsv(csv);
            Encoder encoder = Encoding.UTF8.GetEncoder();
            foreach (ReadOnlyMemory<char> chunk in csv.GetChunks())
            {
                encoder.Convert(chunk.Span, output, flush: false, out _, out _);
            }

            encoder.Convert(ReadOnlySpan<char>.Empty, output, flush: true, out _, out _);
        }
        finally
        {
            stringBuilders.Return(csv);
        }

        return null;
    }
}

// Gzip bytes to text with the browser's DecompressionStream (no library).
// A stream cut short (a recording part the hub is still writing: it flushes
// every second but writes the gzip trailer only at the end) yields what it
// holds up to the cut, with `truncated` set, like `camhub replay`.

/** {text, truncated} of `bytes` (a Uint8Array of one gzip stream). */
export async function gunzipText(bytes) {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const chunks = [];
  const reading = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return false;
        chunks.push(value);
      }
    } catch {
      return true; // the input ended inside the stream
    }
  })();
  // Let the reader take every chunk the data made before closing: an error at
  // the close (a missing trailer) drops the chunks still queued.
  await writer.write(bytes).catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 0));
  writer.close().catch(() => {});
  const truncated = await reading;
  const decoder = new TextDecoder();
  const text = chunks.map((c) => decoder.decode(c, { stream: true })).join('') + decoder.decode();
  return { text, truncated };
}

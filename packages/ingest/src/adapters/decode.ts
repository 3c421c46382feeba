import { TextDecoder } from 'node:util';

/**
 * Bytes to text for feeds and files in whatever encoding they use. The encoding comes from a byte-order
 * mark, then the XML declaration, then the HTTP charset, else UTF-8. Bytes that are not valid in the
 * declared UTF-8 (a common mislabel of Latin-1 feeds) switch decoding to windows-1252 with a warning
 * instead of failing the feed.
 */

export interface DecodeWarning {
  reason: string;
  detail?: string;
}

const SNIFF_BYTES = 1024;

function sniffEncoding(head: Uint8Array, httpCharset: string | undefined): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const ascii = Buffer.from(head).toString('latin1');
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(ascii)?.[1];
  return (declared ?? httpCharset ?? 'utf-8').toLowerCase();
}

function createDecoder(label: string, warnings: DecodeWarning[]): { decoder: TextDecoder; encoding: string } {
  try {
    const isUtf8 = new TextDecoder(label).encoding === 'utf-8';
    return { decoder: new TextDecoder(label, { fatal: isUtf8 }), encoding: label };
  } catch {
    warnings.push({ reason: 'unknown encoding', detail: `"${label}" is not supported; read as UTF-8` });
    return { decoder: new TextDecoder('utf-8', { fatal: true }), encoding: 'utf-8' };
  }
}

/** Decodes a stream of byte chunks into text chunks. Warnings are pushed to `warnings` as they occur. */
export async function* decodeByteStream(
  chunks: AsyncIterable<Uint8Array>,
  options: { httpCharset?: string | undefined; warnings: DecodeWarning[] },
): AsyncGenerator<string> {
  const { warnings } = options;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let state: { decoder: TextDecoder; encoding: string } | undefined;

  const decode = (chunk: Uint8Array, final: boolean): string => {
    if (!state) throw new Error('decoder not initialised');
    try {
      return state.decoder.decode(chunk, { stream: !final });
    } catch {
      warnings.push({
        reason: 'invalid encoding',
        detail: `bytes are not valid ${state.encoding}; the rest was read as windows-1252`,
      });
      state = { decoder: new TextDecoder('windows-1252'), encoding: 'windows-1252' };
      return state.decoder.decode(chunk, { stream: !final });
    }
  };

  for await (const chunk of chunks) {
    if (!state) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < SNIFF_BYTES) continue;
      const head = Buffer.concat(pending);
      pending = [];
      state = createDecoder(sniffEncoding(head, options.httpCharset), warnings);
      const text = decode(head, false);
      if (text) yield text;
      continue;
    }
    const text = decode(chunk, false);
    if (text) yield text;
  }
  if (!state) {
    const head = Buffer.concat(pending);
    state = createDecoder(sniffEncoding(head, options.httpCharset), warnings);
    const text = decode(head, true);
    if (text) yield text;
    return;
  }
  const rest = decode(new Uint8Array(0), true);
  if (rest) yield rest;
}

/** Whole-buffer variant for JSON and CSV files. */
export function decodeBytes(
  bytes: Uint8Array,
  options: { httpCharset?: string | undefined; warnings: DecodeWarning[] },
): string {
  const { warnings } = options;
  const state = createDecoder(sniffEncoding(bytes.subarray(0, SNIFF_BYTES), options.httpCharset), warnings);
  try {
    return state.decoder.decode(bytes);
  } catch {
    warnings.push({
      reason: 'invalid encoding',
      detail: `bytes are not valid ${state.encoding}; read as windows-1252`,
    });
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The start of a file or answer as text, for recognising its format: never fails (a cut character
 * at the end, or bytes the encoding does not allow, become U+FFFD).
 */
export function decodeHead(bytes: Uint8Array, httpCharset?: string): string {
  const label = sniffEncoding(bytes.subarray(0, SNIFF_BYTES), httpCharset);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes).replace(/^\uFEFF/, '');
}

/** charset parameter of a Content-Type header. */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = contentType ? /charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType) : null;
  return match?.[1]?.toLowerCase();
}

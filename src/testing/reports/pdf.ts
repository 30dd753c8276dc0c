/**
 * A minimal PDF writer for the mock server's report links. The SDK's `reports.downloadPdf()` returns
 * raw bytes, so tests (and people opening the file) need a real document, not a placeholder string:
 * PDF 1.4, one Letter page, Helvetica, and a cross-reference table whose byte offsets are exact so
 * strict readers (pdf.js, qpdf, Acrobat) open it without a repair pass. Output is deterministic:
 * no creation date, no random file ID, so the same input always yields the same bytes.
 */

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 54;
const TITLE_SIZE = 16;
const BODY_SIZE = 10;
const LEADING = 13;
/** Helvetica at 10 pt averages about 5 pt per character; 96 characters fill the 504 pt text width. */
const MAX_CHARS_PER_LINE = 96;
/** Lines that fit below the title on one page (the document stays a single page by contract). */
const MAX_BODY_LINES = Math.floor((PAGE_HEIGHT - 2 * MARGIN - TITLE_SIZE - LEADING) / LEADING);

/**
 * WinAnsiEncoding puts common typographic punctuation in 0x80-0x9F, where Latin-1 has controls;
 * mapping these keeps names and notes like "O’Brien" or "Jan – Mar" readable.
 */
const WIN_ANSI_EXTRAS: ReadonlyMap<string, number> = new Map([
  ['\u20ac', 0x80], // euro sign
  ['\u2026', 0x85], // ellipsis
  ['\u2018', 0x91],
  ['\u2019', 0x92],
  ['\u201c', 0x93],
  ['\u201d', 0x94],
  ['\u2022', 0x95], // bullet
  ['\u2013', 0x96], // en dash
  ['\u2014', 0x97], // em dash
  ['\u2122', 0x99], // trade mark
]);

/**
 * Turns text into one character per output byte (code points <= U+00FF) in the encoding the
 * standard Helvetica font uses. Characters it has no glyph for (and controls) become `?` rather
 * than mojibake from a UTF-8 byte sequence.
 */
function toWinAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0x3f;
    const extra = WIN_ANSI_EXTRAS.get(ch);
    if (extra !== undefined) out += String.fromCharCode(extra);
    else if (ch === '\t') out += ' ';
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out += ch;
    else out += '?';
  }
  return out;
}

/** Escapes a string for a PDF literal string: backslash and both parentheses are syntax there. */
function pdfString(text: string): string {
  return `(${toWinAnsi(text).replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Breaks one logical line into display lines at word boundaries, hard-splitting overlong words. */
function wrap(line: string): string[] {
  const words = line.replace(/\s+$/, '').split(' ');
  const out: string[] = [];
  let current = '';
  for (let word of words) {
    while (word.length > MAX_CHARS_PER_LINE) {
      if (current) {
        out.push(current);
        current = '';
      }
      out.push(word.slice(0, MAX_CHARS_PER_LINE));
      word = word.slice(MAX_CHARS_PER_LINE);
    }
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length > MAX_CHARS_PER_LINE) {
      out.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  out.push(current);
  return out;
}

/** The page's content stream: a bold title, then body lines top to bottom. */
function contentStream(title: string, lines: string[]): string {
  let body = lines.flatMap((line) => line.split(/\r\n|\r|\n/)).flatMap(wrap);
  if (body.length > MAX_BODY_LINES) {
    // One page by contract: say what was dropped instead of silently losing it.
    const hidden = body.length - (MAX_BODY_LINES - 1);
    body = [...body.slice(0, MAX_BODY_LINES - 1), `... ${hidden} more line(s) not shown`];
  }
  const ops = [
    'BT',
    `/F2 ${TITLE_SIZE} Tf`,
    `${MARGIN} ${PAGE_HEIGHT - MARGIN - TITLE_SIZE} Td`,
    `${pdfString(title)} Tj`,
    `/F1 ${BODY_SIZE} Tf`,
    `${LEADING} TL`,
    // Td moves relative to the title's line start; the extra leading separates title and body.
    `0 ${-(TITLE_SIZE + 4)} Td`,
  ];
  for (const line of body) ops.push(`${pdfString(line)} Tj T*`);
  ops.push('ET');
  return `${ops.join('\n')}\n`;
}

/**
 * A real, small, valid PDF (1.4, one page, Helvetica text lines, correct xref offsets) that starts
 * with `%PDF-` and ends with `%%EOF`.
 *
 * Text outside Latin-1 is shown as `?` (the standard fonts carry no other glyphs); long lines wrap,
 * and lines beyond one page are replaced by a final "... N more line(s) not shown" line.
 *
 * @param title - Shown in bold at the top and stored as the document's `/Title`.
 * @param lines - Body text, one entry per line; embedded newlines start new lines.
 */
export function renderReportPdf(title: string, lines: string[]): Uint8Array {
  const stream = contentStream(title, lines);
  // Every string below holds only characters <= U+00FF, so latin1 maps them 1:1 to bytes and
  // string lengths equal byte lengths, which the /Length entry and xref offsets rely on.
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      '/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}endstream`,
    `<< /Title ${pdfString(title)} /Producer (applicant-verification mock) >>`,
  ];
  // The second line is the customary binary marker (bytes >= 0x80) so transfer tools treat the
  // file as binary and do not rewrite line endings, which would break the offsets.
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = out.length;
  // Each xref entry must be exactly 20 bytes: 10-digit offset, space, 5-digit generation, space,
  // type, and a two-byte end of line (space + LF).
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xrefAt}\n%%EOF`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

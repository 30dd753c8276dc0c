/**
 * The mock's PDF must be a real document: strict readers locate objects through the xref table,
 * so every offset is checked here by parsing the file the way a reader does.
 */
import { describe, expect, it } from 'vitest';
import { renderReportPdf } from '../../src/testing/reports/pdf.js';

/** PDF bytes as a string with one character per byte (latin1), so string indexes are byte offsets. */
function text(pdf: Uint8Array): string {
  return Buffer.from(pdf).toString('latin1');
}

interface Parsed {
  size: number;
  /** Byte offset of each in-use object, by object number. */
  offsets: Map<number, number>;
}

/** Reads `startxref`, the xref table and the trailer, as a PDF reader does before anything else. */
function parseXref(source: string): Parsed {
  const tail = /startxref\n(\d+)\n%%EOF$/.exec(source);
  expect(tail, 'startxref before %%EOF').not.toBeNull();
  const xrefAt = Number(tail?.[1]);
  expect(source.slice(xrefAt, xrefAt + 5)).toBe('xref\n');
  const header = /^xref\n(\d+) (\d+)\n/.exec(source.slice(xrefAt));
  expect(header).not.toBeNull();
  const first = Number(header?.[1]);
  const count = Number(header?.[2]);
  const entriesAt = xrefAt + (header?.[0].length ?? 0);
  const offsets = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    // Entries are fixed-width: exactly 20 bytes, ending in a two-byte end of line.
    const entry = source.slice(entriesAt + i * 20, entriesAt + (i + 1) * 20);
    const match = /^(\d{10}) (\d{5}) ([nf])(?: \n| \r|\r\n)$/.exec(entry);
    expect(match, `xref entry ${i}: ${JSON.stringify(entry)}`).not.toBeNull();
    if (match?.[3] === 'n') offsets.set(first + i, Number(match[1]));
    else expect(first + i).toBe(0); // only the head of the free list
  }
  const trailer = source.slice(entriesAt + count * 20);
  expect(trailer.startsWith('trailer')).toBe(true);
  const size = Number(/\/Size (\d+)/.exec(trailer)?.[1]);
  return { size, offsets };
}

/** The body of object `n`, found through the xref table only. */
function objectBody(source: string, parsed: Parsed, n: number): string {
  const at = parsed.offsets.get(n) ?? -1;
  const rest = source.slice(at);
  const end = rest.indexOf('\nendobj');
  return rest.slice(`${n} 0 obj\n`.length, end);
}

/** Undoes PDF literal-string escaping, for the escapes the writer may produce. */
function unescapePdf(literal: string): string {
  return literal.replace(/\\([\\()])/g, '$1');
}

/** The strings shown with `Tj` in a content stream, read with a tokenizer that honours escapes. */
function shownStrings(content: string): string[] {
  const out: string[] = [];
  const re = /\(((?:[^\\()]|\\.)*)\) Tj/g;
  for (let m = re.exec(content); m; m = re.exec(content)) out.push(unescapePdf(m[1] ?? ''));
  return out;
}

function contentOf(pdf: Uint8Array): string {
  const source = text(pdf);
  const parsed = parseXref(source);
  const page = objectBody(source, parsed, 3);
  const contentsRef = Number(/\/Contents (\d+) 0 R/.exec(page)?.[1]);
  const body = objectBody(source, parsed, contentsRef);
  const length = Number(/\/Length (\d+)/.exec(body)?.[1]);
  const streamStart = body.indexOf('stream\n') + 'stream\n'.length;
  // /Length must be exact: the stream is followed immediately by the endstream keyword.
  expect(body.slice(streamStart + length)).toBe('endstream');
  return body.slice(streamStart, streamStart + length);
}

describe('renderReportPdf', () => {
  const pdf = renderReportPdf('Income report: Maple Court', [
    'Applicant: Jordan Alvarez',
    'Recurring income (3-month average): $5,066.67',
    'Rent rule: passed',
  ]);

  it('returns bytes that start with %PDF- and end with %%EOF', () => {
    expect(pdf).toBeInstanceOf(Uint8Array);
    const source = text(pdf);
    expect(source.startsWith('%PDF-1.4\n')).toBe(true);
    expect(source.endsWith('%%EOF')).toBe(true);
    // The binary marker comment: four bytes >= 0x80 on the second line.
    expect([...pdf.slice(9, 14)].slice(1).every((b) => b >= 0x80)).toBe(true);
  });

  it('has an xref table whose every offset points at its "N 0 obj" line', () => {
    const source = text(pdf);
    const parsed = parseXref(source);
    expect(parsed.size).toBe(parsed.offsets.size + 1);
    expect(parsed.offsets.size).toBeGreaterThanOrEqual(5);
    for (const [n, offset] of parsed.offsets) {
      expect(source.slice(offset, offset + `${n} 0 obj\n`.length)).toBe(`${n} 0 obj\n`);
      expect(source[offset - 1]).toBe('\n'); // starts a line
    }
  });

  it('describes one page with Helvetica text', () => {
    const source = text(pdf);
    const parsed = parseXref(source);
    const root = Number(/\/Root (\d+) 0 R/.exec(source.slice(source.lastIndexOf('trailer')))?.[1]);
    const catalog = objectBody(source, parsed, root);
    expect(catalog).toContain('/Type /Catalog');
    const pagesRef = Number(/\/Pages (\d+) 0 R/.exec(catalog)?.[1]);
    expect(objectBody(source, parsed, pagesRef)).toMatch(/\/Count 1\b/);
    expect(source).toContain('/BaseFont /Helvetica ');
    expect(shownStrings(contentOf(pdf))).toEqual([
      'Income report: Maple Court',
      'Applicant: Jordan Alvarez',
      'Recurring income (3-month average): $5,066.67',
      'Rent rule: passed',
    ]);
  });

  it('escapes parentheses and backslashes in the text, the title and the /Title entry', () => {
    const tricky = 'Net (after tax) \\ gross ) unbalanced ( \\(already\\)';
    const doc = renderReportPdf('Report (draft) \\ v2', [tricky]);
    const content = contentOf(doc);
    expect(content).toContain('(Net \\(after tax\\) \\\\ gross \\) unbalanced \\( \\\\\\(already\\\\\\)) Tj');
    expect(shownStrings(content)).toEqual(['Report (draft) \\ v2', tricky]);
    expect(text(doc)).toContain('/Title (Report \\(draft\\) \\\\ v2)');
    // Offsets stay right when escaping changes the byte length.
    const source = text(doc);
    for (const [n, offset] of parseXref(source).offsets)
      expect(source.startsWith(`${n} 0 obj`, offset)).toBe(true);
  });

  it('writes Latin-1 as single bytes, maps typographic punctuation to WinAnsi, and replaces the rest with ?', () => {
    const doc = renderReportPdf('Résumé', ['José Núñez — O’Brien', 'Emoji 😀 and 中文']);
    const content = contentOf(doc);
    expect(shownStrings(content)).toEqual([
      'R\u00e9sum\u00e9',
      'Jos\u00e9 N\u00fa\u00f1ez \u0097 O\u0092Brien',
      'Emoji ? and ??',
    ]);
    const source = text(doc);
    for (const [n, offset] of parseXref(source).offsets)
      expect(source.startsWith(`${n} 0 obj`, offset)).toBe(true);
  });

  it('wraps long lines and stays on one page when there are too many lines', () => {
    const long = `${'word '.repeat(60)}end`;
    const many = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
    const doc = renderReportPdf('Long', [long, ...many]);
    const shown = shownStrings(contentOf(doc));
    expect(shown.every((s) => s.length <= 96)).toBe(true);
    expect(shown.slice(1, 4).join(' ')).toContain('word word');
    expect(shown[shown.length - 1]).toMatch(/^\.\.\. \d+ more line\(s\) not shown$/);
    expect(shown.length).toBeLessThan(70);
    expect(text(doc)).toMatch(/\/Count 1\b/);
    const source = text(doc);
    for (const [n, offset] of parseXref(source).offsets)
      expect(source.startsWith(`${n} 0 obj`, offset)).toBe(true);
  });

  it('splits embedded newlines into lines and handles an empty body', () => {
    expect(shownStrings(contentOf(renderReportPdf('T', ['a\nb', 'c\r\nd'])))).toEqual([
      'T',
      'a',
      'b',
      'c',
      'd',
    ]);
    const empty = renderReportPdf('', []);
    expect(shownStrings(contentOf(empty))).toEqual(['']);
    expect(text(empty).endsWith('%%EOF')).toBe(true);
  });

  it('is deterministic: same input, same bytes', () => {
    expect(renderReportPdf('A', ['b', 'c'])).toEqual(renderReportPdf('A', ['b', 'c']));
  });
});

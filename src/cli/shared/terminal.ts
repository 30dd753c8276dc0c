/**
 * Text from the server made harmless for a terminal. A group name or an error message holding
 * ESC sequences could retitle the window (OSC), move the cursor over earlier output or rewrite
 * it (CSI), or hide text; C1 controls (U+0080-U+009F) act as ESC on some terminals, and
 * bidirectional overrides reorder what a person reads. Each such character is shown as a visible
 * `\u{…}` escape instead, so nothing is lost and nothing is executed.
 */

// C0 except line feed, DEL, C1, and the bidirectional overrides and isolates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_IN_LINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// The same plus line feed: for a single cell or field, where a line break would fake a new line.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_IN_CELL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(character: string): string {
  return `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`;
}

/** `text` with every control character shown as a visible escape; line feeds kept. */
export function safeLines(text: string): string {
  return text.replace(UNSAFE_IN_LINES, visible);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const UNSAFE_IN_CSV = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` for a CSV cell: like {@link safeLines}, but tabs are kept too (harmless on a terminal,
 * and a leading one is left for `escape_formulas` to quote).
 */
export function safeCsvText(text: string): string {
  return text.replace(UNSAFE_IN_CSV, visible);
}

/** `text` as one field on one line: every control character, line feeds included, made visible. */
export function safeCell(text: string): string {
  return text.replace(UNSAFE_IN_CELL, visible);
}

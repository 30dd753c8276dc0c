/**
 * JSON output that cannot be crashed by the data: `JSON.stringify` recurses, so a response
 * field nested 20 000 deep throws `RangeError: Maximum call stack size exceeded`. This writer
 * walks the value with its own stack instead, and keeps everything (no depth cut-off). Strings
 * are escaped as `JSON.stringify` does, plus C1 controls, bidirectional overrides and U+2028/9,
 * so the output is also safe to print on a terminal.
 */

const EXTRA_ESCAPES = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function quote(text: string): string {
  return JSON.stringify(text).replace(
    EXTRA_ESCAPES,
    (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

function primitive(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

interface Frame {
  /** Entries still to write: `[key, value]`, the key `undefined` in arrays. */
  entries: [string | undefined, unknown][];
  next: number;
  close: string;
  depth: number;
}

/**
 * `value` as JSON text, like `JSON.stringify(value, null, indent)` for data parsed from JSON, at
 * any depth. `undefined` and functions are left out of objects and written as `null` in arrays.
 */
export function toJson(value: unknown, indent = 0): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const pad = (depth: number) => (indent > 0 ? `\n${' '.repeat(indent * depth)}` : '');
  const colon = indent > 0 ? ': ' : ':';

  // Writes a value; a container is opened and pushed, its entries written by the loop below.
  const open = (item: unknown, depth: number, inArray: boolean): boolean => {
    const text = primitive(item);
    if (text !== undefined) {
      parts.push(text);
      return true;
    }
    if (typeof item !== 'object' || item === null) {
      if (inArray) parts.push('null');
      return inArray;
    }
    if (Array.isArray(item)) {
      const entries = item.map((element: unknown): [undefined, unknown] => [undefined, element]);
      parts.push('[');
      stack.push({ entries, next: 0, close: ']', depth: depth + 1 });
      return true;
    }
    const entries: [string, unknown][] = Object.entries(item).filter(
      ([, field]) => field !== undefined && typeof field !== 'function' && typeof field !== 'symbol',
    );
    parts.push('{');
    stack.push({ entries, next: 0, close: '}', depth: depth + 1 });
    return true;
  };

  if (!open(value, 0, false)) return 'null';
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (!frame) break;
    if (frame.next >= frame.entries.length) {
      stack.pop();
      parts.push(`${frame.entries.length > 0 ? pad(frame.depth - 1) : ''}${frame.close}`);
      continue;
    }
    const entry = frame.entries[frame.next];
    if (frame.next > 0) parts.push(',');
    frame.next++;
    if (!entry) continue;
    const [key, item] = entry;
    parts.push(pad(frame.depth));
    if (key !== undefined) parts.push(`${quote(key)}${colon}`);
    open(item, frame.depth, key === undefined);
  }
  return parts.join('');
}

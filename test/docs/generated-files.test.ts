/**
 * The files `npm run generate` writes from the schemas for calls made before zod is loaded: the
 * committed ones are what the schemas give today (the CI check: run `npm run generate` when it
 * fails). Their behaviour is tested beside what they serve: test/core/cold-checks.test.ts and
 * test/webhooks/event-check.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COLD_OPERATIONS, coldChecksText } from '../../scripts/cold-checks.js';
import { webhookEventFieldsText } from '../../scripts/webhook-event-fields.js';

const committed = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('generated files', () => {
  it('src/resources/cold-checks.generated.ts is current (run npm run generate when this fails)', () => {
    expect(committed('src/resources/cold-checks.generated.ts')).toBe(coldChecksText(COLD_OPERATIONS));
  });

  it('src/webhooks/event-fields.generated.ts is current (run npm run generate when this fails)', () => {
    expect(committed('src/webhooks/event-fields.generated.ts')).toBe(webhookEventFieldsText());
  });
});

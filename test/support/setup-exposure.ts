/** Per test file: flush what the file exposed, for the global redaction scan. */
import { afterAll, expect, inject } from 'vitest';
import { flushExposure } from './exposure.js';

afterAll(() => {
  flushExposure(inject('exposureDir'), expect.getState().testPath ?? 'unknown');
});

/** Per test file: flush what the file exposed, for the global redaction scan. */
import { afterAll, expect } from 'vitest';
import { flushExposure } from './exposure.js';

afterAll(() => {
  flushExposure(expect.getState().testPath ?? 'unknown');
});

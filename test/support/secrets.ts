/** The fixed secrets used by the suite: none may appear in anything shown to a person. */
import { DEFAULT_SECRET_KEY } from '../../src/testing/index.js';

export const TEST_SECRET_KEY = 'sk_test_super_secret_value';

export const SECRETS_THAT_MUST_NOT_LEAK: readonly string[] = [TEST_SECRET_KEY, DEFAULT_SECRET_KEY];

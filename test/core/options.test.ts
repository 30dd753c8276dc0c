import { afterEach, describe, expect, it, vi } from 'vitest';
import { maskEmail, maskText, redact } from '../../src/core/observability/redact.js';
import { ConfigurationError, VerificationClient } from '../../src/index.js';

afterEach(() => vi.unstubAllEnvs());

describe('client options', () => {
  it('checks deadline and createGraceWindow at construction', () => {
    const base = { baseURL: 'https://api.example.com', clientId: 'id', secretKey: 'sk' };
    expect(() => new VerificationClient({ ...base, deadline: 0 })).toThrow(
      /deadline option must be greater than 0/,
    );
    expect(() => new VerificationClient({ ...base, createGraceWindow: -1 })).toThrow(
      /createGraceWindow option must be 0 or more/,
    );
    expect(() => new VerificationClient({ ...base, deadline: 5_000, createGraceWindow: 0 })).not.toThrow();
  });

  it('names the option and the variable when the base URL is missing', () => {
    vi.stubEnv('VERIFICATION_BASE_URL', '');
    expect(() => new VerificationClient({ clientId: 'id', secretKey: 'sk' })).toThrow(
      /baseURL.*VERIFICATION_BASE_URL/,
    );
  });

  it('names the missing credentials and their variables', () => {
    vi.stubEnv('VERIFICATION_CLIENT_ID', '');
    vi.stubEnv('VERIFICATION_SECRET_KEY', '');
    const build = () => new VerificationClient({ baseURL: 'https://api.example.com', clientId: 'id' });
    expect(build).toThrow(ConfigurationError);
    expect(build).toThrow(/clientId option needs its secretKey/);
    const none = () => new VerificationClient({ baseURL: 'https://api.example.com' });
    expect(none).toThrow(
      /clientId \(env VERIFICATION_CLIENT_ID\) and secretKey \(env VERIFICATION_SECRET_KEY\)/,
    );
  });

  it('reads the environment', () => {
    vi.stubEnv('VERIFICATION_BASE_URL', 'https://api.example.com/v');
    vi.stubEnv('VERIFICATION_CLIENT_ID', 'id');
    vi.stubEnv('VERIFICATION_SECRET_KEY', 'sk');
    vi.stubEnv('VERIFICATION_LOG', 'debug');
    expect(new VerificationClient().baseURL).toBe('https://api.example.com/v');
    vi.stubEnv('VERIFICATION_LOG', 'loud');
    expect(() => new VerificationClient()).toThrow(/VERIFICATION_LOG/);
  });

  it('refuses plain http except on loopback or with allowInsecureHttp', () => {
    const creds = { clientId: 'id', secretKey: 'sk' };
    expect(() => new VerificationClient({ ...creds, baseURL: 'http://api.example.com' })).toThrow(
      /plain http/,
    );
    expect(new VerificationClient({ ...creds, baseURL: 'http://127.0.0.1:4010' }).baseURL).toBe(
      'http://127.0.0.1:4010/',
    );
    expect(new VerificationClient({ ...creds, baseURL: 'http://localhost:4010' }).baseURL).toBe(
      'http://localhost:4010/',
    );
    expect(
      new VerificationClient({ ...creds, baseURL: 'http://staging.internal', allowInsecureHttp: true })
        .baseURL,
    ).toBe('http://staging.internal/');
  });

  it('rejects nonsense numbers', () => {
    const base = { baseURL: 'https://api.example.com', clientId: 'id', secretKey: 'sk' };
    expect(() => new VerificationClient({ ...base, timeout: -1 })).toThrow(/timeout/);
    expect(() => new VerificationClient({ ...base, maxRetries: Number.NaN })).toThrow(/maxRetries/);
  });
});

describe('redaction', () => {
  it('masks emails and phone numbers and drops tokens', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    const text = maskText(
      'GET /x?search=jane.doe%40example.com +14155550123 Bearer abc.def.ghi eyJhbGciOi.eyJzdWIi.sig',
    );
    expect(text).toContain('search=j***%40example.com');
    expect(text).not.toContain('14155550123');
    expect(text).not.toContain('abc.def.ghi');
    expect(text).not.toContain('eyJzdWIi');
    expect(maskText('mail jane.doe@example.com')).toBe('mail j***@example.com');
  });

  it('replaces values under secret-looking keys', () => {
    expect(
      redact({ secret_key: 'sk', nested: { Authorization: 'Bearer x', email: 'bob@example.org' } }),
    ).toEqual({
      secret_key: '[REDACTED]',
      nested: { Authorization: '[REDACTED]', email: 'b***@example.org' },
    });
  });
});

describe('redaction of keys and odd domains', () => {
  it('masks emails used as object keys and short top-level domains', () => {
    expect(redact({ 'yXT@k.Tzz': true })).toEqual({ 'y***@k.Tzz': true });
    expect(maskText('ab@c.d.e')).not.toContain('ab@');
  });
});

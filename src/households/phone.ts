/**
 * Phone numbers as offices type them, into the E.164 form the API takes. libphonenumber-js knows
 * every country's numbering plan (lengths, leading digits, trunk prefixes), which change every
 * year; its `min` metadata is enough to tell a possible number from a typo. Loaded by this subpath
 * only: the main and edge entries never reach this file (`.dependency-cruiser.cjs`).
 */
import {
  type CountryCode,
  getCountryCallingCode,
  getExampleNumber,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';
import { ConfigurationError } from '../core/options.js';

/** What reading one phone cell gave: the E.164 number, or why it is refused. */
export type PhoneResult = { ok: true; e164: string } | { ok: false; message: string };

const INTERNATIONAL_EXAMPLE = '+1 415 555 0123';

/**
 * Checks a `defaultCountry` option: an ISO 3166-1 alpha-2 code with a numbering plan (`US`, `GB`;
 * lower case is accepted). Returns it upper-cased.
 *
 * @throws ConfigurationError naming `option` otherwise.
 */
export function checkDefaultCountry(value: string, option = 'defaultCountry'): CountryCode {
  const code = value.trim().toUpperCase();
  if (!isSupportedCountry(code)) {
    throw new ConfigurationError(
      `${option} must be a two-letter country code (ISO 3166-1, e.g. US or GB), got "${value}"`,
    );
  }
  return code;
}

function nationalExample(country: CountryCode): string {
  return getExampleNumber(country, examples)?.formatNational() ?? '';
}

/**
 * Reads one phone cell. A number starting with `+` (or `00`) is international; any other needs
 * `defaultCountry`, and is never guessed without it. Spaces, dashes, dots and parentheses are
 * ignored. The message of a refused number says which form was expected; it never repeats the
 * number (personal data, and error output ends up in tickets).
 */
export function readPhone(value: string, defaultCountry: CountryCode | undefined): PhoneResult {
  const text = value.trim().replace(/^00/, '+');
  const international = text.startsWith('+');
  if (!international && defaultCountry === undefined) {
    return {
      ok: false,
      message: `is a national number without a country: write it with "+" and the country code (${INTERNATIONAL_EXAMPLE}), or give the default country (defaultCountry, --default-country US)`,
    };
  }
  const parsed = international
    ? parsePhoneNumberFromString(text)
    : parsePhoneNumberFromString(text, defaultCountry);
  if (parsed?.isValid()) return { ok: true, e164: parsed.number };
  if (international || defaultCountry === undefined) {
    return {
      ok: false,
      message: `is not a valid international number: expected "+", the country code, then the number, e.g. ${INTERNATIONAL_EXAMPLE}`,
    };
  }
  const example = nationalExample(defaultCountry);
  return {
    ok: false,
    message: `is not a valid ${defaultCountry} number: expected a national number${example === '' ? '' : ` like ${example}`}, or "+" and the country code (+${getCountryCallingCode(defaultCountry)} for ${defaultCountry})`,
  };
}

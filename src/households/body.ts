/**
 * A checked household into its create body, with its correlation id, checked once more against the
 * SDK's request rules (the API's own limits) before anyone could send it.
 */
import {
  type ApplicantCreateParams,
  type ApplicantGroupCreateParams,
  applicantGroupCreateWireSchema,
} from '../schemas/applicant-groups.js';
import type { RentUnit } from '../schemas/rent.js';
import { withZod } from '../schemas/with-zod.js';
import type { ColumnName } from './columns.js';
import { correlationIdFor } from './correlation.js';
import { type Merged, type Row, textField } from './household-checks.js';
import type { HouseholdProblem } from './problems.js';
import { type RowValues, shownCell } from './rows.js';

/** One household of the CSV: one applicant group to create. */
export interface Household {
  /** The `household_key` of its rows. */
  key: string;
  /** Line of its first row (the header is line 1). */
  line: number;
  /** Lines of all its rows (one per applicant). */
  lines: number[];
  /** The deterministic correlation id, also in `body` (docs/households.md, "Correlation ids"). */
  correlationId: string;
  /** The create body, valid against the SDK's request rules: pass it to `createOnce`. */
  body: ApplicantGroupCreateParams;
}

/** What a body is built with besides the household: the options of `parseHouseholds`. */
export interface BodySettings {
  batchId: string;
  invitations: boolean;
  apiRentUnit: RentUnit;
}

// Which CSV column a path of the request body comes from, to point a final issue at a cell.
const BODY_PATH_COLUMNS: Readonly<Record<string, ColumnName>> = {
  first_name: 'first_name',
  last_name: 'last_name',
  email: 'email',
  phone_number: 'phone',
  verifications: 'verification_types',
  name: 'property_name',
  street_address: 'street_address',
  city: 'city',
  state: 'state',
  zip_code: 'zip_code',
  unit: 'unit',
  monthly_rent: 'monthly_rent',
  decision_maker_display_name: 'decision_maker',
};

function applicantOf(values: RowValues): ApplicantCreateParams {
  const types = values.verification_types ?? [];
  return {
    first_name: values.first_name ?? '',
    last_name: values.last_name ?? '',
    email: values.email ?? '',
    ...(values.phone === undefined ? {} : { phone_number: values.phone }),
    ...(types.length > 0 ? { verifications: types.map((type) => ({ type })) } : {}),
  };
}

// The value a body path names (`['applicants', 0, 'email']`), for the problem to quote it.
function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Reflect.get(value, part);
  }
  return value;
}

/** The household's body, or `undefined` with its problems added when the API's rules refuse it. */
export function buildHousehold(
  key: string,
  applicants: readonly Row[],
  merged: Merged,
  decisionMaker: string,
  settings: BodySettings,
  problems: HouseholdProblem[],
): Household | undefined {
  const first = applicants[0]?.line ?? 0;
  const unit = textField(merged, 'unit');
  const rent = merged.get('monthly_rent')?.value;
  const monthlyRent = typeof rent === 'number' ? rent : 0;
  const correlationId = correlationIdFor({
    batchId: settings.batchId,
    householdKey: key,
    emails: applicants.map(({ values }) => values.email ?? ''),
    monthlyRent,
  });
  const body: ApplicantGroupCreateParams = {
    applicants: applicants.map(({ values }) => applicantOf(values)),
    property: {
      name: textField(merged, 'property_name') ?? '',
      street_address: textField(merged, 'street_address') ?? '',
      city: textField(merged, 'city') ?? '',
      state: textField(merged, 'state') ?? '',
      zip_code: textField(merged, 'zip_code') ?? '',
      ...(unit === undefined ? {} : { unit }),
    },
    decision_maker_display_name: decisionMaker,
    monthly_rent: monthlyRent,
    correlation_id: correlationId,
    ...(settings.invitations ? {} : { is_invitation_disabled: true }),
  };
  // The SDK checks the body again before sending; checking here keeps "nothing is sent while
  // any row is bad" true even where its rules are stricter than the cells' (a name's length).
  const check = withZod(() => applicantGroupCreateWireSchema(settings.apiRentUnit)).safeParse(body);
  if (check.success) {
    return { key, line: first, lines: applicants.map((row) => row.line), correlationId, body };
  }
  for (const issue of check.error.issues) {
    const [head, index] = issue.path;
    const row = head === 'applicants' && typeof index === 'number' ? applicants[index] : undefined;
    const leaf = issue.path.findLast((part): part is string => typeof part === 'string');
    const column = leaf === undefined ? undefined : BODY_PATH_COLUMNS[leaf];
    const sent = valueAt(body, issue.path);
    const value =
      column === undefined || (typeof sent !== 'string' && typeof sent !== 'number')
        ? undefined
        : shownCell(column, String(sent));
    problems.push({
      kind: 'invalid_body',
      line: row?.line ?? first,
      column,
      householdKey: key,
      message: value === undefined ? issue.message : `${issue.message}; got ${value}`,
      ...(value === undefined ? {} : { value }),
    });
  }
  return undefined;
}

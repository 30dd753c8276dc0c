/**
 * The public types of duplicate reports, expiry and re-invitations: what `findDuplicates`,
 * `createOnce` and the create options promise a caller, checked by `npm run typecheck`.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ApplicantGroup,
  ApplicantGroupCreateOptions,
  CreateOnceOptions,
  CreateOnceResult,
  DuplicateGroup,
  DuplicateHousehold,
  FindDuplicatesParams,
  PossibleDuplicate,
  Settled,
  VerificationClient,
} from '../../src/index.js';

declare const client: VerificationClient;

describe('findDuplicates', () => {
  it('takes a period and resolves the households with their live groups', () => {
    expectTypeOf(client.applicantGroups.findDuplicates)
      .parameter(0)
      .toEqualTypeOf<FindDuplicatesParams | undefined>();
    expectTypeOf(client.applicantGroups.findDuplicates).returns.toEqualTypeOf<
      Promise<DuplicateHousehold[]>
    >();
    expectTypeOf<FindDuplicatesParams>().toEqualTypeOf<{
      createdAfter?: Date | number | undefined;
      createdBefore?: Date | number | undefined;
    }>();
    expectTypeOf<DuplicateHousehold>().toEqualTypeOf<{
      readonly correlationId: string;
      readonly groups: readonly DuplicateGroup[];
    }>();
    expectTypeOf<DuplicateGroup>().toEqualTypeOf<{
      readonly id: string;
      readonly createdAt: string | undefined;
      readonly status: ApplicantGroup['status'];
    }>();
    // @ts-expect-error: the period's names are camelCase options, not the list's wire names
    client.applicantGroups.findDuplicates({ created_after: 0 });
  });
});

describe('createOnce: expiry and re-invitations', () => {
  it('says expired and names the group a re-invitation replaces', () => {
    expectTypeOf<CreateOnceResult['expired']>().toEqualTypeOf<true | undefined>();
    expectTypeOf<CreateOnceResult['reinvitationOf']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<CreateOnceResult['duplicates']>().toEqualTypeOf<readonly PossibleDuplicate[] | undefined>();
    expectTypeOf<CreateOnceOptions['reinviteExpired']>().toEqualTypeOf<boolean | undefined>();
    // @ts-expect-error: a plain create never re-invites: the option is createOnce's
    expectTypeOf<ApplicantGroupCreateOptions['reinviteExpired']>();
  });

  it('every create takes the duplicate listener; createMany once items carry the reports', async () => {
    expectTypeOf<ApplicantGroupCreateOptions['onPossibleDuplicate']>().toEqualTypeOf<
      ((report: PossibleDuplicate) => void) | undefined
    >();
    const settled = await client.applicantGroups.createMany([], { once: true });
    expectTypeOf(settled).toEqualTypeOf<Settled<CreateOnceResult>[]>();
  });
});

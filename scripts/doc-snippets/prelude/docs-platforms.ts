/**
 * docs/platforms.md's fragments: the platform's own code (common.ts has the rest). The landlord
 * table, what a change means to the platform (per account), and a database.
 */
import type { GroupChange, VerificationClient } from 'applicant-verification';

/** The platform's table of landlords. */
export declare const landlords: {
  credentials(clientId: string): Promise<{ clientId: string; secretKey: string } | undefined>;
  clientIds(): Promise<string[]>;
};
/** What a change means to the platform, for one landlord's account. */
export declare function apply(account: string, change: GroupChange): Promise<void>;
/** The platform root built earlier on the page. */
export declare const root: VerificationClient;
/** A landlord's row of the platform's table. */
export declare const row: { clientId: string; secretKey: string };
/** A database client (pg-promise's shape). */
export declare const db: {
  oneOrNone<T>(query: string, values: readonly unknown[]): Promise<T | null>;
  none(query: string, values: readonly unknown[]): Promise<null>;
};

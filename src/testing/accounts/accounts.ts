/**
 * The accounts one mock serves: each a client id and secret key the auth endpoint accepts, with
 * its own groups, reports and webhook signing key. A mock made with a single `clientId` /
 * `secretKey` (or neither: the defaults) serves one account. Another account's records are
 * invisible to a caller: the routes answer for them exactly as for an unknown id.
 */

/** One account of a mock: its credentials and the key its webhook deliveries are signed with. */
export interface MockAccount {
  /** Client id the auth endpoint accepts for this account. */
  clientId: string;
  /**
   * Secret key of the account; also the key its webhook deliveries are signed with, as the
   * service signs them (docs/wire-contract.md §6: one secret per account, no separate webhook
   * secret).
   */
  secretKey: string;
  /**
   * A test's override of the key the account's deliveries are signed with (default: its
   * `secretKey`, as the service does): emulates a sender still signing with a key the receiver
   * must accept during a rotation. The bin's `--account-webhook-secret ID:KEY`.
   */
  webhookSecret?: string;
}

/** Which account's records a view shows; omitted, every account's. */
export interface AccountFilter {
  /** Client id of the account. */
  account?: string | undefined;
}

/** Whether `record` belongs to the account `filter` names (any record, when it names none). */
export const belongsTo = (record: { account: string }, filter: AccountFilter = {}): boolean =>
  filter.account === undefined || record.account === filter.account;

/** The account options of a mock, as {@link MockApiOptions} takes them. */
export interface AccountOptions {
  accounts?: readonly MockAccount[] | undefined;
  clientId?: string | undefined;
  secretKey?: string | undefined;
}

/** The accounts of one mock, by client id, in the order given (the first is the default one). */
export interface AccountBook {
  /** The first account: the one `mock.clientId` / `mock.secretKey` and `mock.client()` use. */
  readonly first: MockAccount;
  /** Every account by client id. */
  readonly byId: ReadonlyMap<string, MockAccount>;
  /** The account with this client id; throws, naming the known ids, for an unknown one. */
  get(clientId: string): MockAccount;
  /** The key deliveries of `clientId`'s records are signed with. */
  webhookSecretOf(clientId: string): string;
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(`${field} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * The accounts `options` describe: `accounts`, or one account of `clientId` / `secretKey` (each
 * defaulting to `defaults`). Both forms at once, an empty list, a duplicate client id or a
 * missing field is a `TypeError`/`RangeError` naming the field.
 */
export function resolveAccounts(options: AccountOptions, defaults: MockAccount): AccountBook {
  const { accounts } = options;
  if (accounts !== undefined && (options.clientId !== undefined || options.secretKey !== undefined))
    throw new TypeError('Pass either accounts or clientId/secretKey, not both');
  if (accounts !== undefined && (!Array.isArray(accounts) || accounts.length === 0))
    throw new RangeError('accounts must be a non-empty array of { clientId, secretKey }');
  const list: MockAccount[] = (
    accounts ?? [
      {
        clientId: options.clientId ?? defaults.clientId,
        secretKey: options.secretKey ?? defaults.secretKey,
      },
    ]
  ).map((account, index) => {
    const field = accounts === undefined ? '' : `accounts[${index}].`;
    const checked: MockAccount = {
      clientId: nonEmptyString(account.clientId, `${field}clientId`),
      secretKey: nonEmptyString(account.secretKey, `${field}secretKey`),
    };
    if (account.webhookSecret !== undefined)
      checked.webhookSecret = nonEmptyString(account.webhookSecret, `${field}webhookSecret`);
    return checked;
  });
  const byId = new Map<string, MockAccount>();
  for (const account of list) {
    if (byId.has(account.clientId))
      throw new RangeError(`accounts has client id ${JSON.stringify(account.clientId)} twice`);
    byId.set(account.clientId, account);
  }
  const [first] = list;
  if (first === undefined) throw new RangeError('accounts must not be empty');
  const get = (clientId: string): MockAccount => {
    const account = byId.get(clientId);
    if (account) return account;
    const known = [...byId.keys()].map((id) => JSON.stringify(id)).join(', ');
    throw new RangeError(`The mock has no account ${JSON.stringify(clientId)} (its accounts: ${known})`);
  };
  return {
    first,
    byId,
    get,
    webhookSecretOf(clientId) {
      const account = get(clientId);
      return account.webhookSecret ?? account.secretKey;
    },
  };
}

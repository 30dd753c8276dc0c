/**
 * `groups list`'s state filter. The API filters by `status` (not_started, in_progress, completed)
 * and knows nothing of expiry, so `expired` and `live` are filtered here: every group is exactly
 * one of live (still waiting for applicants), completed, or expired (settled before completion).
 */
import type { ApplicantGroup, KnownGroupStatus } from 'applicant-verification';
import { GROUP_STATUSES, isKnownGroupStatus } from 'applicant-verification/schemas';
import { isSettledGroup } from '../../../internal.js';
import { UsageError } from '../../errors.js';
import { expiredBeforeCompletion } from '../../shared/group-state.js';

/** The states this command filters by itself. */
const LOCAL_STATES = ['expired', 'live'] as const;
type LocalState = (typeof LOCAL_STATES)[number];

function isLocalState(value: string): value is LocalState {
  return (LOCAL_STATES as readonly string[]).includes(value);
}

/** What to ask the API for, and which of its groups to keep. */
export interface GroupFilter {
  /** Statuses the API filters by; `undefined`: every group. */
  statuses: KnownGroupStatus[] | undefined;
  /** Whether a listed group is shown. */
  keep(group: ApplicantGroup): boolean;
}

/**
 * The filter of `--status a,b` (API statuses, `expired`, `live`: any of them), `--expired` (as
 * `--status expired`) and `--live` (as `--status live`).
 */
export function groupFilterOf(options: {
  status?: readonly string[] | undefined;
  expired?: boolean | undefined;
  live?: boolean | undefined;
}): GroupFilter {
  const named = (options.status ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (options.status !== undefined && named.length === 0) {
    throw new UsageError('--status needs a value, e.g. --status completed');
  }
  const unknown = named.filter((value) => !isLocalState(value) && !isKnownGroupStatus(value));
  if (unknown.length > 0) {
    throw new UsageError(
      `--status must be one of ${[...GROUP_STATUSES, ...LOCAL_STATES].join(', ')}, got "${unknown.join('", "')}"`,
    );
  }
  const statuses: KnownGroupStatus[] = named.filter(isKnownGroupStatus);
  const local = new Set<LocalState>([
    ...named.filter(isLocalState),
    ...(options.expired ? (['expired'] as const) : []),
    ...(options.live ? (['live'] as const) : []),
  ]);
  if (local.size === 0) return { statuses: statuses.length > 0 ? statuses : undefined, keep: () => true };
  // The API cannot filter by expiry: every group is asked for, and kept if any given state names it.
  const wanted: ReadonlySet<string> = new Set(statuses);
  return {
    statuses: undefined,
    keep: (group) =>
      wanted.has(group.status) ||
      (local.has('expired') && expiredBeforeCompletion(group)) ||
      (local.has('live') && !isSettledGroup(group)),
  };
}

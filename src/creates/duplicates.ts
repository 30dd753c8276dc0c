/**
 * Reports of possible duplicates (docs/fault-model.md, "No silent duplicate"). Where the SDK
 * cannot prevent a second group for one household (the coordination lost a lease while its
 * holder's request was in flight: Redis flushed, restarted without persistence, failed over), it
 * says so at once: on the call's result, in an error-level log line, and on the tracing `alert`
 * channel (code `possible_duplicate`), so an operator can act on it (the API has no delete).
 */
import type { Logger } from '../core/observability/log.js';
import { publishAlert } from '../core/observability/tracing.js';

/** One possible duplicate, as the SDK reports it. */
export interface PossibleDuplicate {
  /**
   * `lease_lost_after_send`: the create's lease was lost while its request was in flight, so
   * another holder may have created the household too. `several_groups`: a lookup found more
   * than one live group of the household under the correlation id.
   */
  readonly kind: 'lease_lost_after_send' | 'several_groups';
  /** The household's correlation id. */
  readonly correlationId: string;
  /** The group this call created (or found), when it has one. */
  readonly groupId: string | undefined;
  /** The household's other groups the SDK saw (empty when none has shown yet). */
  readonly otherGroupIds: readonly string[];
  /** When the SDK noticed, ISO 8601. */
  readonly at: string;
  /** What happened, in a sentence. */
  readonly reason: string;
}

/** Logs `report` at error level and publishes it on the `alert` channel. */
export function announceDuplicate(logger: Logger, report: PossibleDuplicate): void {
  const others = report.otherGroupIds.length > 0 ? ` Other groups: ${report.otherGroupIds.join(', ')}.` : '';
  const message = `Possible duplicate group for correlation_id "${report.correlationId}" (${report.kind}): ${report.reason}${report.groupId ? ` This call's group: ${report.groupId}.` : ''}${others} See docs/fault-model.md, "A duplicate was reported".`;
  logger.error(message);
  publishAlert({
    code: 'possible_duplicate',
    operation: 'applicantGroups.create',
    message,
    details: {
      kind: report.kind,
      correlationId: report.correlationId,
      groupId: report.groupId ?? '',
      otherGroupIds: report.otherGroupIds.join(','),
      at: report.at,
    },
  });
}

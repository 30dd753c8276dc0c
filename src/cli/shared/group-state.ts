/** What the commands say about a group's state beyond its `status`. */
import type { ApplicantGroup } from 'applicant-verification';
import { isSettledGroup } from '../../internal.js';

/** Whether the group expired before it was completed: settled, but not by completion. */
export function expiredBeforeCompletion(group: ApplicantGroup): boolean {
  return isSettledGroup(group) && group.status !== 'completed';
}

/**
 * Which clicks may credit a response in experiment results. One function, so that requiring verified
 * response ids (a click naming an id the server issued, not one a client made up) is a one-line change.
 */
import type { LoggedActivity } from '../tracking/activity-record.js';

export function creditsResponse(activity: LoggedActivity): boolean {
  return activity.sourceId !== undefined || activity.recommendationId !== undefined;
}

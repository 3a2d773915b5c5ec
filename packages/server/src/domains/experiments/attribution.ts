/**
 * Which clicks may credit a response in experiment results: only those whose response ids verified as
 * issued to the tenant at collect time (tracking/response-ids.ts). One that named an id made up or
 * another tenant's, or was logged before ids were signed, is kept in the log and credits nothing here.
 */
import { isVerifiedAttribution, type LoggedActivity } from '../tracking/activity-record.js';

export function creditsResponse(activity: LoggedActivity): boolean {
  return isVerifiedAttribution(activity);
}

/** Wire types of the older tracker (`{base_url}/tracker/{trackerKey}/...`): identify, activities by verb, a profile's history. */

export interface ProfileDatasource {
  id: string;
  original_id: string;
}

/** `POST /tracker/{trackerKey}/identify`. */
export interface IdentifyRequest {
  profile: { id?: string; datasources?: ProfileDatasource[]; infos?: Record<string, unknown>; segments?: Record<string, unknown> };
}

export interface TrackerProfile {
  id: string;
  datasources: ProfileDatasource[];
  infos: Record<string, unknown>;
  segments: Record<string, unknown>;
}

export interface IdentifyResponse {
  profile: TrackerProfile;
  /** True when the server made a new profile (first visit, or an id it does not know). */
  created: boolean;
}

/** One activity of `POST /tracker/{trackerKey}/activity`. */
export interface TrackerActivityInput {
  /** A client-made id: the same id sent twice is counted once. */
  id?: string;
  /** The identify answer's profile id; absent, the activity is counted but belongs to no profile. */
  profile?: string;
  /** A mandatory verb (`view`, `add-to-cart`, `buy`, `like`, `dislike`, `click-on-reco`) or one the tenant weighs. */
  verb: string;
  /** Default `product`. */
  type?: string;
  original_id: string;
  /** Integer cents. */
  price?: number;
  quantity?: number;
  widgetId?: string;
  /** Required by `click-on-reco`: the id a recommendation response carried. */
  recommendationId?: string;
  segments?: Record<string, unknown>;
}

export interface TrackerActivityRequest {
  activity: TrackerActivityInput | TrackerActivityInput[];
}

/** One activity as the older tracker answers it. */
export interface TrackerActivityView {
  id: string;
  verb: string;
  type: string;
  originalId: string;
  /** Null for an activity sent without `profile`. */
  profileId: string | null;
  datasourceId: string | null;
  segments: unknown;
  tenant: string;
  price: number | null;
  quantity: number | null;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

export interface TrackerActivityResponse {
  activities: TrackerActivityView[];
}

/** `GET /tracker/{trackerKey}/profiles/{profileId}/activities`: a JSON:API page. */
export interface TrackerHistoryPage {
  data: TrackerActivityView[];
  links: { self: string; first: string; prev: string | null; next: string | null; last: string };
  meta: { total: number; pageNumber: number; pageSize: number; totalPages: number };
}

/** Wire types of the admin API's analytics (`/admin/analytics...`), read by the console's overview and search pages. */

export interface WidgetCounts {
  impressions: number;
  clicks: number;
  addToCarts: number;
  purchases: number;
  /** Attributed purchases' price × quantity, in cents. */
  revenue: number;
}

export interface AnalyticsDay {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  activities: number;
  verbs: Record<string, number>;
  searches: number;
  zeroResultSearches: number;
  widgets: Record<string, WidgetCounts & { clickThrough: number }>;
}

export interface WidgetAnalyticsRow extends WidgetCounts {
  widgetId: string;
  /** clicks ÷ impressions. */
  clickThrough: number;
  /** purchases ÷ clicks. */
  conversionRate: number;
  /**
   * Activities that named this widget without a response id issued to the tenant (made up, another
   * tenant's, or a widget id alone): counted here only, never in the figures above.
   */
  unverified: WidgetCounts;
}

/** `GET /admin/analytics?days=`. */
export interface AnalyticsResponse {
  environment: string;
  days: AnalyticsDay[];
  widgets: WidgetAnalyticsRow[];
}

export interface QueryAnalyticsRow {
  query: string;
  searches: number;
  zeroResults: number;
  corrected: number;
  lastResultCount: number;
  clicks: number;
  conversions: number;
  /** clicks ÷ searches. */
  clickThrough: number;
  conversionRate: number;
}

/** `GET /admin/analytics/queries?days=&limit=`. */
export interface QueryAnalyticsResponse {
  days: number;
  top: QueryAnalyticsRow[];
  /** Queries whose latest search still finds nothing. */
  zeroResult: QueryAnalyticsRow[];
  corrected: QueryAnalyticsRow[];
}

/** `GET /admin/analytics/activities-per-minute?minutes=`. */
export interface ActivitiesPerMinuteResponse {
  minutes: Array<{ at: string; count: number }>;
}

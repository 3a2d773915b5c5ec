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
  /** Searches whose results got a click or product view. */
  searchClicks: number;
  /** Searches followed by an add-to-cart or purchase. */
  searchConversions: number;
  /** Purchases from search results: price × quantity, in cents. */
  searchRevenue: number;
  widgets: Record<string, WidgetCounts & { clickThrough: number }>;
}

/** A period's key figures, for the overview's numbers and their change against the period before. */
export interface AnalyticsTotals {
  /** First and last day, `YYYY-MM-DD`. */
  from: string;
  to: string;
  searches: number;
  zeroResultSearches: number;
  searchClicks: number;
  searchConversions: number;
  /** In cents. */
  searchRevenue: number;
  widgetImpressions: number;
  widgetClicks: number;
  widgetPurchases: number;
  /** In cents. */
  widgetRevenue: number;
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
  /** ISO 4217 code of the purchases counted (the latest purchase's), absent before any purchase. */
  currency?: string;
  days: AnalyticsDay[];
  widgets: WidgetAnalyticsRow[];
  /** The days asked for, and as many days just before them. */
  totals: { current: AnalyticsTotals; previous: AnalyticsTotals };
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

/** `GET /admin/analytics/activities-per-minute?minutes=`: by the time activities happened, so an import of history is not "this minute". */
export interface ActivitiesPerMinuteResponse {
  minutes: Array<{ at: string; count: number }>;
}

/**
 * Abuse reports: the reasons, in the drawer's order, with the labels the
 * "Report abuse to administrator" drawer shows (GitLab's AbuseReport category labels).
 */
export const ABUSE_CATEGORIES = ['spam', 'offensive', 'phishing', 'crypto', 'credentials', 'copyright', 'malware', 'other'] as const;

export type AbuseCategory = (typeof ABUSE_CATEGORIES)[number];

export const ABUSE_CATEGORY_LABELS: Record<AbuseCategory, string> = {
  spam: 'They are posting spam.',
  offensive: 'They are being offensive or abusive.',
  phishing: "They are phishing.",
  crypto: 'They are crypto mining.',
  credentials: "They are posting personal information or credentials.",
  copyright: 'They are violating a copyright or trademark.',
  malware: 'They are posting malware.',
  other: 'Something else.',
};

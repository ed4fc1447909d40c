/** The send privacy control's steps (spec 1 send), then an anonymous zap (a throwaway key). */
export const PRIVACY_STEPS = ["NotAvailable", "Private", "Public", "Anonymous"] as const;
export type Privacy = (typeof PRIVACY_STEPS)[number];
export const nextPrivacy = (p: Privacy): Privacy =>
  PRIVACY_STEPS[(PRIVACY_STEPS.indexOf(p) + 1) % PRIVACY_STEPS.length] ?? "NotAvailable";

/** After saving currency or language, or after an import or delete, home follows after this delay. */
export const AFTER_SAVE_MS = 1000;

/**
 * Routes this release serves (`:id` stands for a contact's id); the settings root shows the rest as not yet
 * available.
 */
export const ROUTES_BUILT: readonly string[] = [
  "/",
  "/setup",
  "/receive",
  "/send",
  "/search",
  "/scanner",
  "/redeem",
  "/settings",
  "/settings/backup",
  "/settings/restore",
  "/setup/restore",
  "/settings/currency",
  "/settings/language",
  "/settings/emergencykit",
  "/settings/channels",
  "/settings/admin",
  "/swap",
  "/settings/encrypt",
  "/settings/servers",
  "/chat/:id",
  "/request/:id",
  "/newprofile",
  "/profile",
  "/editprofile",
  "/importprofile",
  "/settings/importprofile",
  "/settings/nostrkeys",
  "/settings/connections",
  "/feedback",
  "/settings/plus",
  "/settings/lightningaddress",
  "/settings/federations",
  "/addfederation",
  "/swaplightning",
  "/transfer",
];

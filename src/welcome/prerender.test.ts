import { describe, expect, it } from "vitest";
import { loadMessages } from "../i18n/intl";
import { LANGUAGES } from "../i18n/languages";
import { renderWelcomes } from "./prerender";

describe("the welcome screen drawn when the app is built", () => {
  it("is the app's own welcome screen in every language offered, with its button and both ways to import", async () => {
    const screens = await renderWelcomes();
    for (const { value } of LANGUAGES) {
      const messages = await loadMessages(value);
      const screen = screens[value];
      expect(screen, value).toBeDefined();
      const html = screen?.html ?? "";
      expect(html).toContain('<main class="screen center setup">');
      expect(html).toContain(
        `<button type="button" class="button button-primary">${messages["setup.new_wallet"]}</button>`,
      );
      // The logo, drawn by the app's own component, and no navigation of a wallet that does not exist.
      expect(html).toContain(
        `<span class="logo logo-large" role="img" aria-label="${messages["logo.standard"]}">`,
      );
      expect(html).toContain('src="/icon.svg"');
      expect(html).not.toContain('class="side-nav"');
      expect(html).toContain('href="/setup/restore"');
      expect(html).toContain('href="/settings/emergencykit"');
      // The skip link and navigation the app draws around every screen, so nothing moves when it takes over.
      expect(html).toContain('class="skip-link"');
      expect(screen?.creating).toBe(messages["setup.creating"]);
    }
  });
});

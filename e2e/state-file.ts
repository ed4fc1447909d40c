import type { Locator, Page } from "@playwright/test";

/**
 * Opens the emergency kit at `base`, chooses the state file and types its password, as its owner does;
 * answers the dialog's import button, not yet pressed (the caller presses it, and may time it).
 */
export const fillStateFileImport = async (
  page: Page,
  file: string,
  password: string,
  base = "",
): Promise<Locator> => {
  await page.goto(`${base}/settings/emergencykit`);
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import state from file" }).click();
  await (await chooser).setFiles(file);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password").fill(password);
  return page.getByRole("dialog").getByRole("button", { name: "Import state from file" });
};

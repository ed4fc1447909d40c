import { describe, expect, it } from "vitest";
import { detectLanguage, matchLanguage } from "./languages";

describe("language detection", () => {
  it("follows local storage, then the query, then the browser, then the html tag", () => {
    expect(detectLanguage({ stored: "fr", query: "de", browser: ["es"], html: "it" })).toBe("fr");
    expect(detectLanguage({ stored: null, query: "de", browser: ["es"], html: "it" })).toBe("de");
    expect(detectLanguage({ stored: null, query: null, browser: ["xx", "es-MX"], html: "it" })).toBe("es");
    expect(detectLanguage({ stored: null, query: null, browser: [], html: "it" })).toBe("it");
    expect(detectLanguage({ stored: "xx", query: "yy", browser: ["zz"], html: null })).toBe("en");
  });
  it("keeps the language part only, Chinese by script or region", () => {
    expect(matchLanguage("de-AT")).toBe("de");
    expect(matchLanguage("pt-BR")).toBe("pt");
    expect(matchLanguage("zh-Hant-TW")).toBe("zh-TW");
    expect(matchLanguage("zh")).toBe("zh-CN");
    expect(matchLanguage("zh_TW")).toBe("zh-TW");
  });
});

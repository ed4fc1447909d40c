import { describe, expect, it } from "vitest";
import { decodeLnurl, encodeLnurl } from "./lnurl";
import vectors from "./vectors/lnurl.json";

describe("LNURL (lnurl/luds LUD-01)", () => {
  for (const example of vectors.examples) {
    it("decodes the LUD-01 example in upper and lower case", () => {
      expect(decodeLnurl(example.lnurl)).toEqual({ url: example.url, isAuth: false });
      expect(decodeLnurl(example.lnurl.toLowerCase())?.url).toBe(example.url);
    });
    it("encodes the LUD-01 example", () => {
      expect(encodeLnurl(example.url)).toBe(example.lnurl);
    });
  }

  it("tells LNURL-auth by tag=login", () => {
    const lnurl = encodeLnurl("https://site.example/auth?tag=login&k1=00ff&action=login");
    expect(decodeLnurl(lnurl)?.isAuth).toBe(true);
  });

  it("reads the LUD-17 schemes as https, or http for onion hosts", () => {
    expect(decodeLnurl("lnurlw://domain.com/path")).toEqual({
      url: "https://domain.com/path",
      isAuth: false,
    });
    expect(decodeLnurl("lnurlp://examplennnnnnnn.onion/path")?.url).toBe("http://examplennnnnnnn.onion/path");
    expect(decodeLnurl("LNURLC://domain.com/c")?.url).toBe("https://domain.com/c");
    expect(decodeLnurl("keyauth://domain.com/login?k1=00")).toEqual({
      url: "https://domain.com/login?k1=00",
      isAuth: true,
    });
  });

  it("refuses plain http outside onion and loopback hosts, bad checksums and mixed case", () => {
    expect(decodeLnurl(encodeLnurl("http://service.com/api"))).toBeNull();
    expect(decodeLnurl(encodeLnurl("http://127.0.0.1:3000/lnurlp/alice"))?.url).toBe(
      "http://127.0.0.1:3000/lnurlp/alice",
    );
    const example = vectors.examples[0]?.lnurl ?? "";
    expect(decodeLnurl(`${example.slice(0, -1)}Q`)).toBeNull();
    expect(decodeLnurl(`l${example.slice(1)}`)).toBeNull();
    expect(decodeLnurl(encodeLnurl("not a url"))).toBeNull();
  });
});

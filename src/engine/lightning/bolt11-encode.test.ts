import { sha256 } from "@noble/hashes/sha2.js";
import { hex, utf8 } from "@scure/base";
import { describe, expect, it } from "vitest";
import { decodeBolt11 } from "../parse/bolt11";
import { encodeInvoice, field } from "./bolt11-encode";

// BOLT #11's examples: this key, this payment hash and secret, this time.
const KEY = hex.decode("e126f68f7eafcc8b74f54d269fe206be715000f94dac067d1c04a8ca3b2db734");
const HASH = hex.decode("0001020304050607080900010203040506070809000102030405060708090102");
const SECRET = new Uint8Array(32).fill(0x11);
const TIME = 1496314658;

describe("BOLT11 invoices as the spec's examples write them", () => {
  it("a donation of any amount", () => {
    expect(
      encodeInvoice({
        prefix: "lnbc",
        amountMsat: null,
        timestamp: TIME,
        secretKey: KEY,
        fields: [
          field.paymentSecret(SECRET),
          field.paymentHash(HASH),
          field.description("Please consider supporting this project"),
          field.features([8, 14]),
        ],
      }),
    ).toBe(
      "lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdpl2pkx2ctnv5sxxmmwwd5kgetjypeh2ursdae8g6twvus8g6rfwvs8qun0dfjkxaq9qrsgq357wnc5r2ueh7ck6q93dj32dlqnls087fxdwk8qakdyafkq3yap9us6v52vjjsrvywa6rt52cm9r9zqt8r2t7mlcwspyetp5h2tztugp9lfyql",
    );
  });

  it("20 mBTC with a fallback address and a route through two private channels", () => {
    const invoice = encodeInvoice({
      prefix: "lnbc",
      amountMsat: 2_000_000_000n,
      timestamp: TIME,
      secretKey: KEY,
      fields: [
        field.paymentSecret(SECRET),
        field.paymentHash(HASH),
        field.descriptionHash(
          sha256(
            utf8.decode(
              "One piece of chocolate cake, one icecream cone, one pickle, one slice of swiss cheese, one slice of salami, one lollypop, one piece of cherry pie, one sausage, one cupcake, and one slice of watermelon",
            ),
          ),
        ),
        field.fallback(17, hex.decode("04b61f7dc1ea0dc99424464cc4064dc564d91e89")),
        field.routeHint([
          {
            pubkey: "029e03a901b85534ff1e92c43c74431f7ce72046060fcf7a95c37e148f78c77255",
            scid: (66051n << 40n) | (263430n << 16n) | 1800n,
            feeBaseMsat: 1,
            feeProportionalMillionths: 20,
            cltvExpiryDelta: 3,
          },
          {
            pubkey: "039e03a901b85534ff1e92c43c74431f7ce72046060fcf7a95c37e148f78c77255",
            scid: (197637n << 40n) | (395016n << 16n) | 2314n,
            feeBaseMsat: 2,
            feeProportionalMillionths: 30,
            cltvExpiryDelta: 4,
          },
        ]),
        field.features([8, 14]),
      ],
    });
    expect(invoice).toBe(
      "lnbc20m1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygspp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqhp58yjmdan79s6qqdhdzgynm4zwqd5d7xmw5fk98klysy043l2ahrqsfpp3qjmp7lwpagxun9pygexvgpjdc4jdj85fr9yq20q82gphp2nflc7jtzrcazrra7wwgzxqc8u7754cdlpfrmccae92qgzqvzq2ps8pqqqqqqpqqqqq9qqqvpeuqafqxu92d8lr6fvg0r5gv0heeeqgcrqlnm6jhphu9y00rrhy4grqszsvpcgpy9qqqqqqgqqqqq7qqzq9qrsgqdfjcdk6w3ak5pca9hwfwfh63zrrz06wwfya0ydlzpgzxkn5xagsqz7x9j4jwe7yj7vaf2k9lqsdk45kts2fd0fkr28am0u4w95tt2nsq76cqw0",
    );
    expect(decodeBolt11(invoice)).toMatchObject({
      amountMsat: 2_000_000_000n,
      payeePubkey: "03e7156ae33b0a208d0744199163177e909e80176e55d97a2f221ede0f934dd9ad",
    });
  });
});

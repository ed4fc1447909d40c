import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stamp } from "../../events/make";
import { newEvent } from "../../events/make";
import { foldEvents } from "../../projections/index";
import { exportBip329, importBip329, parseBip329 } from "./bip329";

const example = readFileSync(new URL("./vectors/bip329.jsonl", import.meta.url), "utf8");
const s = {
  uuid: (() => {
    let i = 0;
    return () => `b-${++i}`;
  })(),
  now: () => 1,
  device: "test",
};

describe("BIP329 labels (bitcoin/bips bip-0329 example)", () => {
  it("reads every record of the BIP's example", () => {
    const { records, badLines } = parseBip329(example);
    expect(badLines).toEqual([]);
    expect(records.map((r) => r.type)).toEqual(["tx", "addr", "pubkey", "input", "output", "xpub", "tx"]);
    expect(records[0]).toEqual({
      type: "tx",
      ref: "f91d0a8a78462bc59398f2c5d7a84fcff491c26ba54c4833478b202796c8aafd",
      label: "Transaction",
      origin: "wpkh([d34db33f/84'/0'/0'])",
    });
    expect(records[4]?.spendable).toBe(false);
  });

  it("imports the transaction and address labels it keeps", () => {
    const { tx, addr } = importBip329(example);
    expect(tx.get("f546156d9044844e02b181026a1a407abfca62e7ea1159f87bbeaa77b4286c74")).toEqual([
      "Account #1 Transaction",
    ]);
    expect(addr.get("bc1q34aq5drpuwy3wgl9lhup9892qp6svr8ldzyy7c")).toEqual(["Address"]);
    expect(tx.size).toBe(2);
  });

  it("exports the wallet's labels and reads them back", () => {
    const txid = "f91d0a8a78462bc59398f2c5d7a84fcff491c26ba54c4833478b202796c8aafd";
    const address = "bc1q34aq5drpuwy3wgl9lhup9892qp6svr8ldzyy7c";
    const state = foldEvents(
      stamp(
        [
          newEvent("onchain.address_issued", {
            address,
            keychain: "external",
            index: 0,
            labels: ["Address"],
          }),
          newEvent("onchain.tx_seen", {
            txid,
            received: "1000",
            sent: "0",
            fee: "100",
            labels: ["rent", "march"],
            outgoing: false,
          }),
        ],
        s,
      ),
    ).onchain;
    const text = exportBip329(state);
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { type: "tx", ref: txid, label: "rent, march" },
      { type: "addr", ref: address, label: "Address" },
    ]);
    const back = importBip329(text);
    expect(back.tx.get(txid)).toEqual(["rent", "march"]);
    expect(back.addr.get(address)).toEqual(["Address"]);
  });

  it("reports bad lines without losing the good ones", () => {
    const { records, badLines } = parseBip329(
      '{"type":"tx","ref":"aa","label":"ok"}\nnot json\n{"type":"nope","ref":"x"}\n',
    );
    expect(records).toHaveLength(1);
    expect(badLines).toEqual([2, 3]);
  });
});

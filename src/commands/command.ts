import type { Network, OnchainKeychain } from "../events/types";
import type { OnchainDetails } from "../projections/activity";

type Empty = Record<never, never>;

/**
 * The closed union of commands the screens may send to the worker, with what each answers.
 * Add a command: one entry here, one handler in the family's file, one line in `handlers.ts`.
 */
export interface CommandSpecs {
  CreateWallet: { input: Empty; output: { walletId: string } };
  /** `replace`: the owner confirmed that the wallet on this device gives way to the restored one. */
  RestoreWallet: { input: { words: string[]; replace?: boolean }; output: { walletId: string } };
  ShowSeed: { input: Empty; output: { words: string[] } };
  MarkBackedUp: { input: Empty; output: null };
  SetFiat: { input: { code: string }; output: null };
  SetSafeMode: { input: { enabled: boolean }; output: null };
  /** Opens the wallet's secrets with its password; 'Incorrect password entered.' when it does not fit. */
  Unlock: { input: { password: string }; output: null };
  /** Sets, changes or (blank `password`) removes the password; blank `existing` means none is set. */
  ChangePassword: {
    input: { existing: string; password: string; confirm: string };
    output: { hasPassword: boolean };
  };
  ExportState: { input: { password: string }; output: { json: string; fileName: string } };
  ImportState: { input: { text: string; password?: string }; output: { imported: number } };
  DeleteEverything: { input: Empty; output: null };
  SetLabels: { input: { itemId: string; labels: string[] }; output: null };
  GetTransaction: { input: { txid: string }; output: OnchainDetails | null };
  ExportLabels: { input: Empty; output: { jsonl: string; fileName: string } };
  ImportLabels: { input: { text: string }; output: { imported: number; badLines: number[] } };

  GetNewAddress: {
    input: { labels: string[] };
    output: { address: string; index: number; keychain: OnchainKeychain };
  };
  CheckAddress: { input: { address: string }; output: { network: Network } };
  CreateBip21: {
    input: { amountSats: bigint | null; labels: string[] };
    output: { uri: string; address: string };
  };
  EstimateTxFee: { input: { address: string; amountSats: bigint }; output: { feeSats: bigint } };
  SendToAddress: {
    input: { address: string; amountSats: bigint; labels: string[] };
    output: { txid: string; feeSats: bigint };
  };
  EstimateSweepTxFee: { input: { address: string }; output: { feeSats: bigint; amountSats: bigint } };
  SweepWallet: {
    input: { address: string; labels: string[] };
    output: { txid: string; feeSats: bigint; amountSats: bigint };
  };
  SyncOnchain: { input: Empty; output: null };
}

export type CommandTag = keyof CommandSpecs;
export type Command = { [K in CommandTag]: { _tag: K } & CommandSpecs[K]["input"] }[CommandTag];
export type CommandOf<K extends CommandTag> = Extract<Command, { _tag: K }>;
export type ResultOf<K extends CommandTag> = CommandSpecs[K]["output"];

/** The small part of bcoin 1.0.2 the local world uses (the package ships no types). Hashes are hex strings. */
declare module "bcoin" {
  export interface Script {
    toRaw(): Buffer;
    toString(): string;
  }
  export interface Output {
    value: number;
    script: Script;
  }
  export interface Outpoint {
    hash: string;
    index: number;
  }
  export interface Input {
    prevout: Outpoint;
    script: Script;
    witness: { items: Buffer[] };
    sequence: number;
  }
  export interface TX {
    version: number;
    locktime: number;
    inputs: Input[];
    outputs: Output[];
    hash(enc: "hex"): string;
    txid(): string;
    toRaw(): Buffer;
    getSize(): number;
    getWeight(): number;
    isCoinbase(): boolean;
  }
  export interface MTX extends TX {
    addOutput(script: Script, value: number): void;
    addCoin(coin: Coin): void;
    fund(coins: Coin[], options: Record<string, unknown>): Promise<void>;
    sign(ring: KeyRing): number;
    toTX(): TX;
  }
  export interface Coin {
    readonly _coin: true;
  }
  export interface Address {
    toString(network: string): string;
  }
  export interface KeyRing {
    witness: boolean;
    getAddress(): Address;
  }
  export interface ChainEntry {
    hash: string;
    height: number;
    time: number;
    version: number;
    bits: number;
    nonce: number;
    prevBlock: string;
    merkleRoot: string;
    rhash(): string;
  }
  export interface Block {
    txs: TX[];
    hash(enc: "hex"): string;
    toRaw(): Buffer;
    toHead(): Buffer;
    getSize(): number;
    getWeight(): number;
  }
  export interface MempoolEntry {
    tx: TX;
    time: number;
  }
  export interface Chain {
    tip: ChainEntry;
    height: number;
    open(): Promise<void>;
    close(): Promise<void>;
    add(block: Block): Promise<ChainEntry | null>;
    getEntry(hashOrHeight: string | number): Promise<ChainEntry | null>;
    getBlock(hash: string): Promise<Block | null>;
    getNext(entry: ChainEntry): Promise<ChainEntry | null>;
    getMedianTime(entry: ChainEntry): Promise<number>;
    isMainChain(entry: ChainEntry): Promise<boolean>;
    on(event: string, f: (...args: never[]) => unknown): void;
  }
  export interface Mempool {
    map: Map<string, MempoolEntry>;
    open(): Promise<void>;
    close(): Promise<void>;
    addTX(tx: TX): Promise<unknown>;
    getEntry(hash: string): MempoolEntry | undefined;
    evictEntry(entry: MempoolEntry): void;
    _addBlock(entry: ChainEntry, txs: TX[]): Promise<void>;
    _removeBlock(entry: ChainEntry, txs: TX[]): Promise<void>;
    _handleReorg(): Promise<void>;
  }
  /** A block being assembled: the mempool's transactions chosen for it, and what they add up to. */
  export interface BlockTemplate {
    items: { tx: TX; fee: number; sigops: number }[];
    fees: number;
    weight: number;
    sigops: number;
    /** Makes the coinbase and merkle root again from `items` and `fees`. */
    refresh(): void;
  }
  export interface Miner {
    open(): Promise<void>;
    close(): Promise<void>;
    cpu: { mineBlock(tip: ChainEntry | null, address: Address): Promise<Block> };
    assemble(attempt: BlockTemplate): void;
  }
  export interface Bcoin {
    Chain: new (options: Record<string, unknown>) => Chain;
    Mempool: new (options: Record<string, unknown>) => Mempool;
    Miner: new (options: Record<string, unknown>) => Miner;
    KeyRing: { generate(): KeyRing };
    MTX: new () => MTX;
    TX: { fromRaw(raw: Buffer): TX };
    Coin: { fromTX(tx: TX, index: number, height: number): Coin };
    Script: { fromRaw(raw: Buffer): Script; fromAddress(address: Address): Script };
    Address: { fromScript(script: Script): Address };
  }
  const bcoin: Bcoin;
  export default bcoin;
}

import { useEffect, useState } from "react";
import { useI18n } from "../i18n/intl";
import { ErrorBox } from "./errors";
import { FilePicker } from "./FilePicker";
import { useAction } from "./form";
import { useWallet } from "./wallet";
import { walletMade } from "./new-wallet";

/**
 * Where first-run profile setup got to (spec 2 first-run setup): stored in local storage under
 * `profile_setup_stage` as saved or skipped; "delete everything" removes it.
 */
export const PROFILE_SETUP_STAGE_KEY = "profile_setup_stage";
export type ProfileStage = "saved" | "skipped";

export const readProfileStage = (): ProfileStage | null => {
  const v = localStorage.getItem(PROFILE_SETUP_STAGE_KEY);
  return v === "saved" || v === "skipped" ? v : null;
};

export const storeProfileStage = (stage: ProfileStage): void => {
  localStorage.setItem(PROFILE_SETUP_STAGE_KEY, stage);
};

/** A browser nostr extension (NIP-07) is present: it holds the owner's identity, so setup does not ask. */
export const hasNostrExtension = (): boolean =>
  typeof (globalThis as { nostr?: unknown }).nostr !== "undefined";

/** A new wallet goes to /newprofile when no stage is stored and no extension exists; otherwise home. */
export const afterNewWallet = (): string =>
  readProfileStage() === null && !hasNostrExtension() ? "/newprofile" : "/";

/** Pictures already read this session, by URL: their `blob:` URLs (null: it could not be read). */
const pictures = new Map<string, Promise<string | null>>();

/**
 * A picture's `blob:` URL: the worker reads it (bounded in size and time, images only), so the page's policy
 * never has to allow images from other hosts. Null until read, and when it cannot be.
 */
export const usePicture = (url: string | null | undefined): string | null => {
  const client = useWallet();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    setSrc(null);
    if (!url) return;
    let live = true;
    let read = pictures.get(url);
    if (!read) {
      read = client
        .dispatch({ _tag: "GetPicture", url })
        .then((p) => URL.createObjectURL(new Blob([p.bytes as Uint8Array<ArrayBuffer>], { type: p.type })))
        .catch(() => null);
      pictures.set(url, read);
    }
    void read.then((s) => {
      if (live) setSrc(s);
    });
    return () => {
      live = false;
    };
  }, [client, url]);
  return src;
};

/** A profile picture, or the name's first letter when there is none. */
export function Avatar({
  picture,
  name,
  size = 40,
  label,
}: {
  picture: string | null | undefined;
  name: string | null | undefined;
  size?: number;
  label?: string;
}) {
  const [broken, setBroken] = useState(false);
  const src = usePicture(picture);
  const letter = (name?.trim()[0] ?? "?").toUpperCase();
  const style = { width: size, height: size, fontSize: size / 2.4 };
  return src && !broken ? (
    <img
      className="avatar"
      src={src}
      alt={label ?? ""}
      style={style}
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  ) : label ? (
    <span className="avatar" style={style} role="img" aria-label={label}>
      <span aria-hidden="true">{letter}</span>
    </span>
  ) : (
    <span className="avatar" style={style} aria-hidden="true">
      {letter}
    </span>
  );
}

/** Picks a picture and uploads it to the media server (upload_profile_pic); `onUploaded` gets its URL. */
export function PicturePicker({
  id,
  onUploaded,
  onBusy,
}: {
  id: string;
  onUploaded: (url: string) => void;
  onBusy?: (busy: boolean) => void;
}) {
  const { t } = useI18n();
  const client = useWallet();
  const { busy, error, run } = useAction();
  const pick = async (file: File | undefined) => {
    if (!file) return;
    onBusy?.(true);
    await run(async () => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      // The upload is signed with the wallet's key: on the first-run step, the wallet may be moments away.
      await walletMade();
      const { url } = await client.dispatch({ _tag: "UploadProfilePic", bytes, type: file.type });
      onUploaded(url);
    });
    onBusy?.(false);
  };
  return (
    <fieldset id={id} className="column file-field">
      <legend className="field-label">{t("profile.picture")}</legend>
      <FilePicker
        className="button self-start"
        accept="image/png,image/jpeg,image/gif,image/webp"
        disabled={busy}
        onFile={(file) => pick(file)}
      >
        {t("profile.picture_choose")}
      </FilePicker>
      {busy ? <p aria-live="polite">{t("profile.picture_uploading")}</p> : null}
      <ErrorBox text={error} />
    </fieldset>
  );
}

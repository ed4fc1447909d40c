import { ClipboardPaste, ImageUp } from "lucide-react";
import { FilePicker } from "../../ui/FilePicker";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { BackControl } from "../../ui/BackControl";
import { useI18n } from "../../i18n/intl";
import { ErrorBox } from "../../ui/errors";
import { PasteButton } from "../../ui/form";
import { decodeQr, MAX_SCANS_PER_SECOND, scanRegion } from "../../ui/qr-decode";
import { useIncoming } from "../../ui/useIncoming";

/**
 * The camera scanner (spec 1 §2): reads the middle of each frame at most 25 times a second, pauses while
 * the page is hidden, and hands what it reads to the incoming-string routing. A photo of a code works
 * too. Decode errors and frames without a code are silent.
 */
export function Scanner() {
  const { t } = useI18n();
  const go = useIncoming();
  const [, navigate] = useLocation();
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [camera, setCamera] = useState<"starting" | "on" | "off">("starting");
  const done = useRef(false);

  const use = (text: string | null) => {
    if (text === null || done.current) return;
    const problem = go(text);
    if (problem === null) done.current = true;
    else setError(problem);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `use` reads the latest routing each frame
  useEffect(() => {
    let stream: MediaStream | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const canvas = document.createElement("canvas");
    const context = canvas.getContext("2d", { willReadFrequently: true });
    const tick = async () => {
      if (stopped) return;
      const v = video.current;
      const started = performance.now();
      if (v && context && !document.hidden && v.readyState >= 2 && v.videoWidth > 0) {
        const r = scanRegion(v.videoWidth, v.videoHeight);
        canvas.width = r.side;
        canvas.height = r.side;
        context.drawImage(v, r.x, r.y, r.side, r.side, 0, 0, r.side, r.side);
        use(await decodeQr(context.getImageData(0, 0, r.side, r.side)));
      }
      if (stopped || done.current) return;
      const wait = Math.max(0, 1000 / MAX_SCANS_PER_SECOND - (performance.now() - started));
      timer = setTimeout(() => void tick(), wait);
    };
    const onVisibility = () => {
      const v = video.current;
      if (!v) return;
      if (document.hidden) v.pause();
      else void v.play().catch(() => undefined);
    };
    navigator.mediaDevices
      ?.getUserMedia({ video: { facingMode: "environment" }, audio: false })
      .then(async (s) => {
        if (stopped) {
          for (const track of s.getTracks()) track.stop();
          return;
        }
        stream = s;
        const v = video.current;
        if (!v) return;
        v.srcObject = s;
        await v.play().catch(() => undefined);
        setCamera("on");
        void tick();
      })
      .catch(() => setCamera("off")) ?? setCamera("off");
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  return (
    <main className="screen scanner">
      <BackControl />
      <h1>{t("scanner.title")}</h1>
      <div className="viewfinder" hidden={camera === "off"}>
        <video ref={video} className="scanner-video" muted playsInline aria-label={t("scanner.camera")} />
        <span className="viewfinder-frame" aria-hidden="true" />
      </div>
      {camera === "off" ? <p className="hint">{t("scanner.no_camera")}</p> : null}
      <ErrorBox text={error} />
      <div className="scanner-actions">
        <PasteButton onText={use} onError={setError}>
          <ClipboardPaste aria-hidden="true" size={18} />
          {t("scanner.paste")}
        </PasteButton>
        <FilePicker
          accept="image/*"
          onFile={async (file, input) => {
            const text = await decodeQr(file);
            input.value = "";
            if (text === null) setError(t("scanner.no_code"));
            else use(text);
          }}
        >
          <ImageUp aria-hidden="true" size={18} />
          {t("scanner.from_image")}
        </FilePicker>
        <button type="button" className="button" onClick={() => navigate("/")}>
          {t("common.cancel")}
        </button>
      </div>
    </main>
  );
}

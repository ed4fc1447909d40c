import { type ReactNode, type Ref, useImperativeHandle, useRef } from "react";

/**
 * A real button that opens the browser's file picker: one tab stop, its name on the button, the visible
 * focus of every button. The file input itself stays out of the page's flow and the accessibility tree.
 */
export function FilePicker({
  accept,
  disabled,
  onFile,
  children,
  className = "button",
  inputRef,
}: {
  accept: string;
  disabled?: boolean;
  /** The chosen file; the input is emptied afterwards so the same file can be chosen again. */
  onFile: (file: File, input: HTMLInputElement) => void | Promise<void>;
  children: ReactNode;
  className?: string;
  inputRef?: Ref<HTMLInputElement | null>;
}) {
  const input = useRef<HTMLInputElement>(null);
  useImperativeHandle(inputRef, () => input.current as HTMLInputElement, []);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void onFile(file, e.target);
        }}
      />
    </>
  );
}

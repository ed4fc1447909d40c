import { type ReactNode, type Ref, useImperativeHandle, useRef } from "react";

/**
 * A real button that opens the browser's file picker: one tab stop, its name on the button, the visible
 * focus of every button. The file input itself stays out of the page's flow and the accessibility tree.
 */
export function FilePicker({
  accept,
  disabled,
  multiple,
  onFile,
  onFiles,
  children,
  className = "button",
  inputRef,
}: {
  accept: string;
  disabled?: boolean;
  /** The chosen file; the input is emptied afterwards so the same file can be chosen again. */
  onFile?: (file: File, input: HTMLInputElement) => void | Promise<void>;
  /** Several files may be chosen at once: all of them (`onFile` is not called then). */
  multiple?: boolean;
  onFiles?: (files: File[]) => void;
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
        multiple={multiple}
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (onFiles) onFiles(files);
          else if (files[0]) void onFile?.(files[0], e.target);
        }}
      />
    </>
  );
}

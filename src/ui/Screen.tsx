import type { ReactNode } from "react";
import { BackControl } from "./BackControl";

/** A screen below home: the back control, its title and, when it has one, the caption under it. */
export function Screen({
  title,
  caption,
  children,
}: {
  readonly title: ReactNode;
  readonly caption?: ReactNode;
  readonly children?: ReactNode;
}) {
  return (
    <main className="screen">
      <BackControl />
      <h1>{title}</h1>
      {caption === undefined ? null : <p>{caption}</p>}
      {children}
    </main>
  );
}

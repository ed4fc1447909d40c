import { Component, type ErrorInfo, type ReactNode } from "react";
import { useI18n } from "../i18n/intl";

/** Catches a render failure anywhere below and shows the general error screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error("Unknown error") };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error("Screen failed", error, info.componentStack);
  }

  override render() {
    return this.state.error ? (
      <GeneralError error={this.state.error} onHome={() => this.setState({ error: null })} />
    ) : (
      this.props.children
    );
  }
}

export function GeneralError({ error, onHome }: { error: Error; onHome?: () => void }) {
  const { t } = useI18n();
  return (
    <main className="screen center">
      <h1>{t("error.oh_no")}</h1>
      <p>{t("error.never_should_happen")}</p>
      <p className="error-box">
        <strong>{error.name}</strong>: {error.message}
      </p>
      <p>{t("error.try_reloading")}</p>
      <div className="column">
        <button type="button" className="button button-primary" onClick={() => location.reload()}>
          {t("error.reload")}
        </button>
        <a className="button" href="/settings/emergencykit">
          {t("error.emergency_link")}
        </a>
        <a
          className="button"
          href="/"
          onClick={(e) => {
            if (onHome) {
              e.preventDefault();
              history.pushState(null, "", "/");
              onHome();
            }
          }}
        >
          {t("error.go_home")}
        </a>
        <a
          className="link"
          href="https://github.com/MutinyWallet/mutiny-web/issues"
          target="_blank"
          rel="noreferrer"
        >
          {t("error.support")}
        </a>
      </div>
    </main>
  );
}

import { Component, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** Optional message shown under 'An error occurred'. */
  message?: string;
}
interface State {
  error: Error | null;
}

/** Data boundary (spec): 'An error occurred' plus an optional message, with a way to try again. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error): void {
    console.error(error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="m-4 rounded border border-red-500/60 bg-red-500/10 p-4">
        <div className="font-semibold">An error occurred</div>
        {(this.props.message ?? this.state.error.message) && <div className="mt-1 text-muted">{this.props.message ?? this.state.error.message}</div>}
        <button type="button" className="mt-3 rounded border border-line px-2 py-1 hover:bg-raised" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}

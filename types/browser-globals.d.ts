// What the pages' scripts use of the vendor scripts' globals (tsconfig.json; nothing here is shipped): only the
// parts the project's JavaScript calls, as those libraries define them.

/** MathJax 2's Hub (vendor/mathjax/MathJax.js, the deck only): deck.js sets a slide's math again once shown. */
interface MathJaxHub {
  /** The math typeset inside an element. */
  getAllJax(element?: Element | string): unknown[];
  /** Lay the math inside an element out again; returns MathJax's callback queue entry. */
  Rerender(element?: Element | string): unknown;
}

/** The configuration deck.js gives reveal.js (reveal.js's own options; these are the ones it sets). */
interface RevealConfig {
  controls?: boolean;
  progress?: boolean;
  history?: boolean;
  transition?: string;
  slideNumber?: boolean | string;
  showSlideNumber?: string;
  center?: boolean;
  width?: number | string;
  height?: number | string;
  margin?: number;
  plugins?: unknown[];
}

/** reveal.js 4's API object (vendor/reveal.js/dist/reveal.js: the global Reveal), the parts deck.js calls. */
interface RevealApi {
  initialize(config?: RevealConfig): Promise<unknown>;
  configure(config: RevealConfig): void;
  on(type: string, listener: (event: Event) => void): void;
  getCurrentSlide(): HTMLElement | undefined;
  isReady(): boolean;
  next(): void;
  prev(): void;
}

/** A slide size in CSS pixels (deck.js). */
interface DeckSize {
  width: number;
  height: number;
}

/** What deck.js (a classic script) puts on the page for the deck's templates. */
interface BleuDeckApi {
  /** Start reveal.js on the static deck, at the size for this screen. */
  start(reveal: RevealApi, plugins: unknown[]): void;
  /** The slide size for this screen's shape (the Voila deck's template reads it). */
  size(): DeckSize;
  SIZES: { standard: DeckSize; wide: DeckSize };
}

/** A Chart.js 4 chart (vendor/chart.js/dist/chart.umd.min.js): what lesson_live.js reads and changes of it. */
interface ChartInstance {
  data: { datasets: object[] };
  options: { scales: { x: { max?: number } } };
  update(mode?: string): void;
}

/** Chart.js 4's Chart class, the global the UMD file sets. */
interface ChartConstructor {
  new (item: HTMLCanvasElement, config: { type: string; data: { datasets: object[] }; options?: object }): ChartInstance;
}

interface Window {
  /** Set by vendor/mathjax/MathJax.js on the deck (a configuration object before it has loaded: no Hub yet). */
  MathJax?: { Hub?: MathJaxHub };
  /** Set by vendor/reveal.js/dist/reveal.js on the static deck, and by the Voila deck's reveal.js. */
  Reveal?: RevealApi;
  /** Set by vendor/chart.js/dist/chart.umd.min.js, which lesson_live.js loads when a page has a chart. */
  Chart?: ChartConstructor;
  /** Set by deck.js. */
  BleuDeck?: BleuDeckApi;
}

/** Chromium's option for a SharedWorker that outlives its last page for a while (python.js); other browsers ignore
 * it. Not in TypeScript's DOM library yet. */
interface WorkerOptions {
  extendedLifetime?: boolean;
}

declare module '@glidejs/glide/dist/glide.modular.esm.js' {
  export interface GlideOptions {
    type?: 'slider' | 'carousel';
    perView?: number;
    gap?: number;
    rewind?: boolean;
    bound?: boolean;
    autoplay?: number | false;
    hoverpause?: boolean;
    animationDuration?: number;
    breakpoints?: Record<number, Partial<GlideOptions>>;
  }
  export default class Glide {
    constructor(root: HTMLElement, options?: GlideOptions);
    index: number;
    settings: GlideOptions;
    mount(extensions?: Record<string, unknown>): Glide;
    go(pattern: string): Glide;
    pause(): Glide;
    play(interval?: number | boolean): Glide;
    on(event: string | string[], handler: () => void): Glide;
    destroy(): Glide;
  }
  export const Autoplay: unknown;
  export const Breakpoints: unknown;
  export const Swipe: unknown;
  export const Anchors: unknown;
}

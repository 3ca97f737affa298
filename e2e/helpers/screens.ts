/** The two screens the product is tried on: a phone held in the hand (touch) and a laptop. */
export const PHONE = { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true };
export const LAPTOP = { viewport: { width: 1280, height: 800 } };

export const SCREENS = [
  ['phone', PHONE],
  ['laptop', LAPTOP],
] as const;

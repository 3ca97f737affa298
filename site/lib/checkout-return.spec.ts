import { returnLabel } from './checkout-return';

describe(returnLabel.name, () => {
  it('names the chapter of a reader page', () => {
    expect(returnLabel('/read/der-leuchtturmwarter/2')).toBe('Continue reading: chapter 2');
    expect(returnLabel('/read/der-leuchtturmwarter/12#p-3')).toBe('Continue reading: chapter 12');
  });

  it('says where otherwise', () => {
    expect(returnLabel('/book-detail/der-leuchtturmwarter')).toBe('Go back to where you were');
    expect(returnLabel('/read/der-leuchtturmwarter')).toBe('Go back to where you were');
  });
});

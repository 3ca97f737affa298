/**
 * Applies a field's rules in the order they are written. Stacked decorators run bottom-up, and with
 * stopAtFirstError the first rule registered is the one reported, so "required" must come first.
 */
export const Field =
  (...rules: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const rule of rules) rule(target, key);
  };

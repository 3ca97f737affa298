/** One inflected form and one of its lemmas, as an expansion or a list gives it. */
export interface FormLemma {
  form: string;
  lemma: string;
}

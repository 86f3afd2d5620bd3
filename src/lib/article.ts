/**
 * "an InternalAccount", "a Customer", "an SMS_OTP credential", "a USD_ACCOUNT": the indefinite
 * article for an identifier. Short all-capital words are read letter by letter (SMS, MX, ITIN),
 * longer ones and mixed case as words (EMAIL_OTP, PASSKEY, InternalAccount).
 */
export function withArticle(word: string): string {
  const head = /^[A-Za-z]+/.exec(word)?.[0] ?? word
  const spelled = /^[A-Z]{2,4}$/.test(head)
  const an = spelled ? /^[AEFHILMNORSX]/.test(head) : /^[aeiou]/i.test(head)
  return `${an ? 'an' : 'a'} ${word}`
}

// Package variant makes a variant of a dataset from a seed: the values a user could have said
// otherwise (names, usernames, passwords, emails, places, amounts, item texts) replaced
// consistently in the dialogues, the world's databases, the gold calls, their accepted
// alternatives and the special cases' needs, and each variant dialogue proven by the same checks
// as the data it comes from. A model that learned the original's samples meets new ones; a
// student gets an exercise of their own.
package variant

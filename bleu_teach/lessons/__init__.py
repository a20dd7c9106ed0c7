"""Lesson support: limitations, mistakes, significance, agreement with experts, the exercise bank, data sets."""

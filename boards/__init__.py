"""Board layouts, the move tracker and the LED hint planner: where sensors meet the rules."""

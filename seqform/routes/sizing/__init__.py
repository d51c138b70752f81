"""A route's size before anything is built: a built-in game's sizes from its parameters
(``planned``) and the memory they need against what the process may have (``memory``)."""

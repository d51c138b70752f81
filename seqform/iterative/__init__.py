"""The CFR family: iterative solvers on the compiled tree."""

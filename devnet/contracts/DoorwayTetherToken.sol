// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./TokenLedger.sol";

/// DoorwayToken with the token ABI of Tether's USDT on mainnet (TetherToken, 0xdAC17F958D2ee523a2206206994597C13D831ec7),
/// so wallets can be tested against it: `transfer`, `transferFrom` and `approve` return nothing, and
/// `approve` from a non-zero allowance to another non-zero one reverts. USDT's pause, blacklist, fees
/// and owner are left out.
contract DoorwayTetherToken is TokenLedger {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address[] memory holders, uint256 amount)
        TokenLedger(name_, symbol_, decimals_, holders, amount)
    {}

    // USDT: no return value
    function transfer(address to, uint256 value) external {
        _transfer(msg.sender, to, value);
    }

    // USDT: no return value; an allowance must go through 0 before it can change
    function approve(address spender, uint256 value) external {
        require(value == 0 || allowance[msg.sender][spender] == 0, "USDT: approve from a non-zero allowance");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }

    // USDT: no return value
    function transferFrom(address from, address to, uint256 value) external {
        _transferFrom(from, to, value);
    }
}
